// The faithful row as an ensemble of 5 (faithful_ens5.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'faithful_ens5.libsonnet')

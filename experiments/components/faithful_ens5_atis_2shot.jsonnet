// The faithful row as an ensemble of 5 (faithful_ens5.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'faithful_ens5.libsonnet')

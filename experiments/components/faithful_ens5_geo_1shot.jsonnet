// The faithful row as an ensemble of 5 (faithful_ens5.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'faithful_ens5.libsonnet')

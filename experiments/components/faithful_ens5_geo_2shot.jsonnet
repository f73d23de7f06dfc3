// The faithful row as an ensemble of 5 (faithful_ens5.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'faithful_ens5.libsonnet')

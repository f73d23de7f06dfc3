// The faithful row as an ensemble of 5 (faithful_ens5.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'faithful_ens5.libsonnet')

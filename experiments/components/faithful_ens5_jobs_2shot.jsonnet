// The faithful row as an ensemble of 5 (faithful_ens5.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'faithful_ens5.libsonnet')

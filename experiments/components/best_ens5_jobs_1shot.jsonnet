// The best row as an ensemble of 5 (best_ens5.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'best_ens5.libsonnet')

// The best row as an ensemble of 5 (best_ens5.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'best_ens5.libsonnet')

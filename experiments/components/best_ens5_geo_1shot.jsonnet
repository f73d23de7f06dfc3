// The best row as an ensemble of 5 (best_ens5.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'best_ens5.libsonnet')

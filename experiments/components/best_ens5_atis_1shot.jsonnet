// The best row as an ensemble of 5 (best_ens5.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'best_ens5.libsonnet')

// The best row as an ensemble of 5 (best_ens5.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'best_ens5.libsonnet')

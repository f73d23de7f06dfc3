// The best row chosen on the development suite as an ensemble of 5 (chosen_ens5.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'chosen_ens5.libsonnet')

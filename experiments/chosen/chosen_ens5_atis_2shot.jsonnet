// The best row chosen on the development suite as an ensemble of 5 (chosen_ens5.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'chosen_ens5.libsonnet')

// The best row chosen on the development suite as an ensemble of 5 (chosen_ens5.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, import 'chosen_ens5.libsonnet')

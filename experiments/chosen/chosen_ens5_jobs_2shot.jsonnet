// The best row chosen on the development suite as an ensemble of 5 (chosen_ens5.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'chosen_ens5.libsonnet')

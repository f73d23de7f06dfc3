// The row chosen on the development suite (chosen/chosen.libsonnet) with replay of every training example and distillation at weight 3 (retain_all.libsonnet), jobs 1-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, (import '../chosen/chosen.libsonnet') + import 'retain_all.libsonnet')

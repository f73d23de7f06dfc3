// The row chosen on the development suite (chosen/chosen.libsonnet) with replay of every training example and distillation at weight 3 (retain_all.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, (import '../chosen/chosen.libsonnet') + import 'retain_all.libsonnet')

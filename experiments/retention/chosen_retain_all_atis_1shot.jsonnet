// The row chosen on the development suite (chosen/chosen.libsonnet) with replay of every training example and distillation at weight 3 (retain_all.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, (import '../chosen/chosen.libsonnet') + import 'retain_all.libsonnet')

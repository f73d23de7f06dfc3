// The row chosen on the development suite (chosen/chosen.libsonnet) with replay of 200 training examples and distillation on them (retain200.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, (import '../chosen/chosen.libsonnet') + import 'retain200.libsonnet')

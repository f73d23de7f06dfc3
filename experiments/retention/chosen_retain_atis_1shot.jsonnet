// The row chosen on the development suite (chosen/chosen.libsonnet) with replay of 200 training examples and distillation on them (retain200.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, (import '../chosen/chosen.libsonnet') + import 'retain200.libsonnet')

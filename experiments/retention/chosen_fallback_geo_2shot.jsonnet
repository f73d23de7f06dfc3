// The row chosen on the development suite (chosen/chosen.libsonnet) answering with the pre-trained parser where the fine-tuned one uses no new predicate (fallback.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, (import '../chosen/chosen.libsonnet') + import 'fallback.libsonnet')

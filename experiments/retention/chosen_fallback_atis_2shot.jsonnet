// The row chosen on the development suite (chosen/chosen.libsonnet) answering with the pre-trained parser where the fine-tuned one uses no new predicate (fallback.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, (import '../chosen/chosen.libsonnet') + import 'fallback.libsonnet')

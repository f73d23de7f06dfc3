// The best row before stop 66 (grid system `chosen-fallback`): chosen with routing to the pre-trained parser, atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, (import 'chosen.libsonnet') + import '../retention/fallback.libsonnet')

// The best row before stop 66 (grid system `chosen-fallback`): chosen with routing to the pre-trained parser, geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, (import 'chosen.libsonnet') + import '../retention/fallback.libsonnet')

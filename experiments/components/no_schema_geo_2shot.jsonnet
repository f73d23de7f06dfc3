// The best row without IRNet schema encoding (no_schema.libsonnet), geo 2-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 2, import 'no_schema.libsonnet')

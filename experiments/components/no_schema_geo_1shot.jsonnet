// The best row without IRNet schema encoding (no_schema.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'no_schema.libsonnet')

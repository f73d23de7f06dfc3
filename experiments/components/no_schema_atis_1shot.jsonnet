// The best row without IRNet schema encoding (no_schema.libsonnet), atis 1-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 1, import 'no_schema.libsonnet')

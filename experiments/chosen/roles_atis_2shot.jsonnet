// The best row with role-checked forward pairs (roles.libsonnet), atis 2-shot.
(import '../common/fewshot.libsonnet').experiment('atis', 2, import 'roles.libsonnet')

// The best row with role-checked forward pairs (roles.libsonnet), geo 1-shot.
(import '../common/fewshot.libsonnet').experiment('geo', 1, import 'roles.libsonnet')

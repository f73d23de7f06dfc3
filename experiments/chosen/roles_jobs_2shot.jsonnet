// The best row with role-checked forward pairs (roles.libsonnet), jobs 2-shot.
(import '../common/fewshot.libsonnet').experiment('jobs', 2, import 'roles.libsonnet')

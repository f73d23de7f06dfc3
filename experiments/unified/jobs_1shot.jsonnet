// ProtoParser with unified slots (one action per predicate whatever fills its arguments; the
// slot filler picks a variable or copies an entity), jobs 1-shot, split $FEWSHOT_SPLIT.
(import '../common/fewshot.libsonnet').experiment('jobs', 1, { variant: 'unified', unify_slots: true })

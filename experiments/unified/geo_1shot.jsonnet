// ProtoParser with unified slots (one action per predicate whatever fills its arguments; the
// slot filler picks a variable or copies an entity), geo 1-shot, split $FEWSHOT_SPLIT.
(import '../common/fewshot.libsonnet').experiment('geo', 1, { variant: 'unified', unify_slots: true })

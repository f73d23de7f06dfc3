// ProtoParser with unified slots (one action per predicate whatever fills its arguments; the
// slot filler picks a variable or copies an entity), geo 2-shot, split $FEWSHOT_SPLIT.
(import '../common/fewshot.libsonnet').experiment('geo', 2, { variant: 'unified', unify_slots: true })

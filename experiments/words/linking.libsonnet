// Lexical linking (not in the paper) with the shipped predicate lexicon: action scores get a learned
// bonus from attended words that name the action's predicates. Words stay random as in the faithful run.
{ variant: 'linking', lexicon: true, lexical_linking: true }

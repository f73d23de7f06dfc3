// The faithful configuration with every label of an action (split at `_`) as the candidate words of
// supervised attention, instead of a REDUCE's head and the authors' lexicon (docs/reproduction.md row 15).
// Own pre-trained archive.
{ variant: 'label-candidates', attention_candidates: 'labels' }

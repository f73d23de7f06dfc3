// The faithful configuration with the authors' P(a | x): every (action, word) occurrence pair counted,
// normalised over actions (docs/reproduction.md row 18). Own pre-trained archive.
{ variant: 'occurrence-counts', conditional_counts: 'occurrences' }

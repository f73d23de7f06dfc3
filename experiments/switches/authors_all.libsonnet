// The faithful configuration with every behaviour of the authors' code that is a switch but not yet the
// faithful default: per-example loss sums (row 13), occurrence counts for P(a | x) (row 18), the
// authors' supervised-attention candidates (row 15) and prototypes with dropout (row 34). What the
// faithful row would become if all four were made its defaults. Own pre-trained archive.
{
  variant: 'authors-all',
  loss_reduction: 'example',
  conditional_counts: 'occurrences',
  attention_candidates: 'authors',
  prototype_mode: 'train',
}

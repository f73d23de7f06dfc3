// Fine-tuning with replay (not in the paper): the support set repeated 10 times plus the training set,
// 3 epochs of batch 16, instead of the support set alone. Shares the faithful pre-training.
{ replay: { repeat: 10, epochs: 3, batch_size: 16 } }

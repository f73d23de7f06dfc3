# Parameters whose gradient is zero by construction, for ModelTestCase's gradient check. The bias of
# a DA discriminator's pooling scorer shifts every position's score alike, which a softmax ignores:
# its gradient is zero up to rounding, and exactly zero on some machines.
POOLING_BIAS = {"_coarse_discriminator.attention.bias", "_fine_discriminator.attention.bias"}


layer_0
a0
a1
a2
r0*
n0MatMula0a1*
n1AddV2n0:0a2*
n2Relun1:02n2:0
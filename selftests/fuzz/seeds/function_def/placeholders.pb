
Scaled
xT
y"	
out("
T(*
cCastx*
DstTJout2c:0
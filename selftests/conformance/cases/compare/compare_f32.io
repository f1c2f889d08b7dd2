# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f32[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1.0000000031710769e-30, -300000.0, 65504.0, 2.5, 0.027142278850078583, 1.6054584980010986, -0.9983609914779663, 0.5644286274909973, -1.0034679174423218, -0.004862527828663588, -2.6758904457092285, -1.5475490093231201, -1.391021490097046, -1.140998125076294, -3.9497060775756836, 1.637094259262085}
in f32[24] {0.8649709224700928, -1.1600661277770996, -0.5104439854621887, 0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1.0000000031710769e-30, -300000.0, 65504.0, 2.5, 1.8745914697647095, -3.6820735931396484, -3.000645160675049, 3.1501832008361816, 0.6522661447525024, -3.886763095855713, -2.065788507461548, -2.448204517364502, 1.1137467622756958}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, false, false, true, false, true, false, false, true, true, false, false, false, true, true, true, false, false, true, true, false, false, true, false}
out pred[24] {true, false, false, true, false, true, false, false, true, true, false, false, false, true, true, true, false, false, true, true, false, false, true, false}
out pred[24] {false, true, true, false, false, false, true, false, false, false, true, true, true, false, false, false, true, true, false, false, true, true, false, true}
out pred[24] {false, true, true, false, false, false, true, false, false, false, true, true, true, false, false, false, true, true, false, false, true, true, false, true}

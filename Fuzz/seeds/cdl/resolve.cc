<?xml version="1.0" encoding="UTF-8"?>
<ColorCorrection id="">
    <SOPNode>
        <Slope>1.033450 0.983410 0.971200</Slope>
        <Offset>-0.012300 0.004500 0.021000</Offset>
        <Power>1.000000 1.020000 0.985000</Power>
    </SOPNode>
    <SatNode>
        <Saturation>1.100000</Saturation>
    </SatNode>
</ColorCorrection>

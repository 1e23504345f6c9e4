<?xml version="1.0" encoding="UTF-8"?>
<cdl:ColorCorrection xmlns:cdl="urn:ASC:CDL:v1.2" id="shot_010">
  <cdl:Description><![CDATA[Look <A> & friends]]></cdl:Description>
  <cdl:Description>grain &amp; halation — later</cdl:Description>
  <cdl:SOPNode>
    <cdl:Slope>  1.2
      0.9	1.1  </cdl:Slope>
    <cdl:Offset>-0.05, 0.02, 0.1</cdl:Offset>
    <cdl:Power>1.3 0.8 1.1</cdl:Power>
  </cdl:SOPNode>
  <cdl:SatNode>
    <cdl:Saturation>1.4</cdl:Saturation>
  </cdl:SatNode>
</cdl:ColorCorrection>

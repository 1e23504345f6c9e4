# The looks docs/EXTRACT.md measures: every creative 3D look in the LUT corpus (not the technical transforms:
# log/HLG/display conversions, identities), and the palette remap reported apart. Sourced by evaluate.sh and
# heldout.sh.
all_looks="gpuimage_lookup_amatorka.png gpuimage_lookup_miss_etikate.png gpuimage_lookup_soft_elegance_1.png
pillowlut_hald6_hefe.png sharktacos_show_cin_resolve_33.cube cubelutloader_resolve_17_crlf.cube
metalpetal_colorlookuptable_tiled64_rgba.png metalpetal_colortablegraded_strip16.png lutgen_gruvbox_dark_hald8.png"

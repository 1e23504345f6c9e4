import ArgumentParser

/// `correct --help`: what the command does, its stages, colour handling, looks, correction, JSON and examples.
extension CorrectCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Correct photos: detect the scene, compose recipe and look into one cube, apply in one pass.",
        discussion: """
        IN may be files or folders (their .png, .jpg, .jpeg, .tif, .tiff, .webp, .heic, .heif and .avif files). OUT is a file when one image and one \
        strength are given and OUT is not a folder (nor ends in /): its extension picks the format (.png, .jpg, \
        .tif, .webp, .heic, .avif); an existing file is replaced. Otherwise OUT is a folder (created), with outputs \
        named after their inputs, plus -sN for each strength when several are given (photo-s40.png). Two inputs \
        that would write the same output (x.png from two folders, or one file given twice) are refused before any \
        work, as is a strength given twice. Each image is analysed once (docs/SCENES.md) and rendered at every \
        strength from that one analysis.

        Stages, all composed into ONE cube per image: automatic correction → pre-look recipe → creative look \
        (always last) → look \
        contrast/saturation trims → look strength (blend with the pre-look result) → overall strength (against \
        identity). A failure on one image is reported and the rest go on; the exit status is 1 if any failed. \
        PNG, TIFF and JPEG stream in bands (bounded memory; a JPEG with an EXIF rotation is decoded whole to turn \
        it upright); WebP, HEIF and AVIF are decoded whole.

        Colour: each image is read in its own colour space (ICC profile, PNG sRGB/gAMA/cHRM, HEIF nclx; \
        untagged = sRGB), converted into the look's working space, graded and converted into the output space \
        — all composed into the one cube (docs/COLOR.md). The output keeps the input's space and profile unless \
        --output-profile names another.

        The creative look is --look (a catalog look) or --lut (a file); it always wins. Without either, an image \
        gets its scene's default look and strength from the catalog (lookstudio scenes list) only when the scene \
        was given (--scene LABEL) or detected with confidence at least 0.75 — on the detector's scale 0.5 is a \
        value exactly at its rule's threshold and 1 a full margin past it (docs/SCENES.md); the fallback scene \
        (60, confidence 0.3, no rule fired) and weaker detections get no creative look, so a guess never paints \
        a grade. --scene-looks applies the detected scene's look whatever the confidence. A scene without a \
        default look gets none. An explicit look is applied at --look-strength, else 100: the scene's strength \
        belongs to its own look. --no-look applies none.

        --in-place replaces each input with its result (written beside it, then renamed over it) and keeps the \
        original as NAME.orig.EXT beside it (a hard link; --no-backup keeps none). A backup already there is \
        never overwritten: that image fails. Folder runs skip NAME.orig.EXT files. Without --in-place, an output \
        that is an input, or an output folder at or inside an input folder, is refused.

        Interrupts: SIGINT (Ctrl-C) or SIGTERM stops starting new images; images in flight are discarded (their \
        temporary files removed; a complete output stays complete), the summary counts corrected, skipped, \
        failed and interrupted images, the manifest records in-flight images as "interrupted", and the exit \
        status is 130 (SIGINT) or 143 (SIGTERM). A second signal ends the process at once, still removing the \
        temporary files.

        Automatic correction (docs/CORRECTION.md) is on by default: per image, from the same analysis, a model \
        learned from good photographs estimates the colour cast and the exposure error with a calibrated \
        confidence and applies as much as that confidence warrants (a sunset keeps its colour); the veil (black \
        point) is measured, and up to 100 % the veil may move a photo by at most 1.0 ΔE00, as a black point cannot \
        tell a veil from bright content; contrast and vibrance act only where a veil was removed; all under the \
        scene's preset strengths (lookstudio scenes show LABEL; change them with scenes set); like its look, a \
        detected scene's pushes (strengths over 100, a white backdrop) need confidence 0.75 or --scene LABEL, and \
        a weaker guess lends only its restraints (strengths under 100, skin protection). --exposure, --levels, \
        --white-balance, --contrast and --vibrance N scale the preset by N percent (0 switches one off; 200 \
        applies the model's whole estimate, however unsure; for --levels the whole measured black, a dehaze); \
        --auto off switches the \
        stage off. With --lut the catalog is not opened and the presets come from the shipped \
        Catalog/scenes.yaml.

        Neutral references (docs/guide/correction.md) replace the model's guess at the cast with what you know. \
        --neutral X,Y[,RADIUS] makes that region of the one photo grey: X and Y are its pixel column and row as \
        the photo is displayed (after its EXIF rotation), RADIUS defaults to 1 % of the long side; the region's \
        mean colour, in linear light, gets channel gains that make it grey at its own brightness. --grey-card \
        CARD.jpg reads a photo of a grey card shot under the shoot's light once and applies its gains to every \
        photo of the run: the card is found as the largest uniform region a grey could be under some light, or \
        given as CARD.jpg@X,Y[,RADIUS]. --grey-level 18% also sets exposure: the reference is brought to that \
        linear reflectance (18 % is a standard grey card) instead of keeping its level. A region that is clipped, \
        too dark, off the photo, or a card not found is refused with where and why; a neutral reference is applied \
        whole, whatever --white-balance, and even with --auto off (then it is the only correction).

        Shoots: --shoot treats each folder's photos as one shoot (files given one by one are grouped by folder): \
        each photo is read once for its evidence, one cast and one exposure are estimated from all of them \
        (the model's likelihoods added across photos, a confidence from the joint posterior and from how far the \
        photos' own estimates disagree) and the same correction is applied to each; a shoot of one photo is \
        corrected as without --shoot. A veil every photo shares is removed in the colour of the shoot's light; \
        the exposure is applied where it stands clear of its spread in a shoot of two or more different scenes \
        (crops of one photo, a burst, count as one); the cast's confidence is set so that untouched shoots never \
        move, which leaves it applying no more than one photo alone would. --explain shows the shoot's estimate \
        and --white-balance 200 --exposure 200 applies it whole. A memory card holding several shoots: \
        --shoot-gap 30 splits each folder by camera (EXIF make, model and serial number) and wherever the \
        capture time jumps by more than 30 minutes; photos without a capture time stay one shoot. Not with \
        --shard.

        JSON (--json): an array, one object per image in input order: {"confidence": 1.0, "error": null, \
        "faces": 0, "file": "…", "look_guid": "…", "look_name": "…", "look_strength": 100, "outputs": ["…"], \
        "scene": 100, "scene_name": "Black & White", "auto": {…}}; auto is null when the stage is off, else the plan: \
        "settings" (the strengths used, percent) and per correction its measured inputs and chosen amount: \
        "model" (the model's SHA-256, or null), "white_balance" {estimate ({"red": log R/G, "blue": log B/G}), \
        spread, confidence, colour, skin (or null), bright_achromatic (or null), amount, corrected, gains}, \
        "levels" {measured_black, veil, measured_white, black, white (linear), kept, airlight}, "exposure" {key, estimate, spread, \
        confidence, face_key (or null), face_stops, stops}, "contrast" {spread_stops, amount}, "vibrance" \
        {mean_saturation, amount, protect_skin}, "shoot" (null, or with --shoot {shoot: the shoot's estimate, \
        own_cast, own_exposure, group: null, or with --shoot-gap the shoot's folder, time span and camera}); \
        white_balance's "neutral" is null or the reference used. confidence and faces are null for --scene \
        LABEL, the look keys are null without a look (look_guid also for --lut); error is set for an image that \
        failed, and outputs lists what it wrote before failing.

        Examples:
          lookstudio correct photo.jpg -o out/ --look "Warm Film" --strength 40,70,100
          lookstudio correct shoot/ -o graded/          # scene looks where the scene is sure
          lookstudio correct shoot/ --in-place          # replace the originals, keep NAME.orig.EXT
          lookstudio correct shoot/ -o graded/ --scene 8 --lut clean.cube \\
            --look-saturation -20
          lookstudio correct photo.jpg -o out.jpg --no-look --explain
          lookstudio correct photo.jpg -o out.jpg --white-balance 50 --vibrance 0
          lookstudio correct photo.jpg -o out.jpg --neutral 1830,940    # the grey wall there is neutral
          lookstudio correct shoot/ -o graded/ --grey-card shoot/card.jpg --grey-level 18%
          lookstudio correct shoot/ -o graded/ --grey-card card.jpg@2010,1400,80
          lookstudio correct day1/ day2/ -o graded/ --shoot
          lookstudio correct photo.png -o out.png --recipe warm.yaml \\
            --look 2DA54C60 --look-strength 60
        """
    )
}

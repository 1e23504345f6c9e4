import Correction
import LookCore
import LookModel
import Scenes

/// The studio's composing: the recipe, and the photo's automatic correction before it.
extension StudioSession {
    /// Composes the request into one cube: the photo's automatic correction (when asked), then the recipe, scaled
    /// against identity by the overall strength.
    public func compose(_ request: StudioComposeRequest) throws -> ColorCube {
        let size = request.size ?? 33
        guard ColorCube.sizeRange.contains(size) else { throw WorkflowError.badSize(size) }
        // The preview composes at `size`, but the recipe's own size is what saving it would use: refused now, not
        // only when the user saves.
        if let own = request.recipe.size, !ColorCube.sizeRange.contains(own) { throw WorkflowError.badSize(own) }
        let strength = request.strength ?? 100
        guard (0...200).contains(strength) else { throw WorkflowError.badStrength(strength) }
        var cube = try composer.compose(request.recipe, size: size)
        if let photo = request.photo, let switches = request.auto {
            let auto = try autoCorrection(photo: photo, switches: switches).auto
            if !auto.isIdentity {
                let sampler = CubeSampler(cube)
                cube = try ColorCube(size: size) { sampler.sample(auto.apply($0), interpolation: .tetrahedral) }
            }
        }
        return try cube.scaled(strength: Float(strength / 100))
    }

    /// The photo's scene analysis, computed once (it is the expensive part of `correct`).
    func analysis(photo id: Int) throws -> SceneAnalysis {
        let photo: Photo = try lock.withLock {
            guard photos.indices.contains(id) else { throw WorkflowError.noSuchPhoto(id) }
            return photos[id]
        }
        if let done = photo.analysis { return done }
        let analysis: SceneAnalysis
        do {
            analysis = try SceneAnalysis(path: photo.path)
        } catch {
            // The file is read again here: an uploaded one is named as dropped, not by its temporary path.
            let upload = photo.path.hasPrefix(uploadFolder + "/") ? photo.name : nil
            throw WorkflowError.unreadablePhoto(name: upload ?? photo.path,
                                                Self.reason(error, path: photo.path, shown: upload))
        }
        lock.withLock { photos[id].analysis = analysis }
        return analysis
    }

    /// The automatic correction `correct` would plan for the photo (its scene's preset), with switches applied.
    private func autoCorrection(photo id: Int, switches: StudioAutoSwitches) throws
        -> (auto: AutoCorrection, detection: SceneDetection, analysis: SceneAnalysis) {
        let analysis = try analysis(photo: id)
        let detection = SceneDetector.detect(analysis)
        let stored = (try? catalog.scene(label: detection.label.rawValue))?.correction ?? CorrectionPreset()
        let preset = LookPlan.gate(stored, scene: detection.label, confidence: detection.confidence).preset
        // A switch off scales its correction to 0 %; on leaves the preset's strength as it is.
        let settings = preset.scaled(Dictionary(uniqueKeysWithValues: switches.off.map { ($0, 0.0) }))
        return (try AutoCorrection.plan(CorrectionAnalysis(analysis), settings: settings), detection, analysis)
    }

    /// The scene and each automatic correction's amount for the photo, as `correct --explain` prints them.
    public func explain(photo id: Int) throws -> StudioExplanation {
        let (auto, detection, analysis) = try autoCorrection(photo: id, switches: StudioAutoSwitches())
        let corrections = CorrectionPreset.Strength.allCases.map { stage in
            let (amount, unit) = auto.amount(of: stage)
            return StudioExplanation.Correction(name: stage.name, setting: auto.settings[stage], amount: amount,
                                                unit: unit)
        }
        return StudioExplanation(scene: detection.label.rawValue, sceneName: detection.label.name,
                                 confidence: detection.confidence, reason: detection.reason,
                                 faces: analysis.faces.count, corrections: corrections, lines: auto.explanation)
    }
}

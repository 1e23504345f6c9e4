import Scenes

/// A shoot's first-pass analyses kept for the photos' corrections, within a byte budget and lowest file index first
/// (files are corrected in index order, so the kept ones are freed soonest): a kept photo's correction looks for
/// faces on its preview instead of decoding the photo a second time.
struct AnalysisShelf: Sendable {
    /// Bytes of preview pixels the shelf may hold.
    let budget: Int
    private var kept: [Int: SceneAnalysis] = [:]
    private var bytes = 0

    init(budget: Int) { self.budget = budget }

    /// Keeps the analysis of file `index` if it fits, dropping kept ones of higher index to make room.
    mutating func offer(_ analysis: SceneAnalysis, index: Int) {
        let size = Self.size(of: analysis)
        while bytes + size > budget, let highest = kept.keys.max(), highest > index {
            drop(highest)
        }
        guard bytes + size <= budget else { return }
        kept[index] = analysis
        bytes += size
    }

    /// The kept analysis of file `index`, no longer kept.
    mutating func take(_ index: Int) -> SceneAnalysis? {
        guard let analysis = kept[index] else { return nil }
        drop(index)
        return analysis
    }

    private mutating func drop(_ index: Int) {
        if let analysis = kept.removeValue(forKey: index) { bytes -= Self.size(of: analysis) }
    }

    private static func size(of analysis: SceneAnalysis) -> Int {
        let preview = analysis.preview
        return preview.width * preview.height * preview.channels * preview.depth.rawValue / 8
    }
}

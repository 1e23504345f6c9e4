/// Recipes the benchmarks and the tests share, so a timing and the acceptance test measure the same chain.
public enum RecipeExamples {
    /// Ten steps: an adjustment from every built-in plugin, strengths below and above 100, and two catalog looks,
    /// `warmLook` (at 70 %) and `cross` (at 120 %); `name` and, when given, `size` head the YAML.
    public static func tenSteps(name: String, size: Int? = nil, warmLook: String = "warm") -> String {
        "name: \(name)\n" + (size.map { "size: \($0)\n" } ?? "") + """
            steps:
              - adjust: tone.exposure
                params: { stops: 0.3 }
              - adjust: wb.temperature
                params: { shift: 900 }
                strength: 80
              - adjust: tone.contrast
                params: { amount: 0.2 }
              - look: \(warmLook)
                strength: 70
              - adjust: color.saturation
                params: { amount: 0.15 }
              - adjust: color.hue
                params: { angle: 8 }
              - look: cross
                strength: 120
              - adjust: tone.shadows
                params: { amount: 0.3 }
              - adjust: blend.soft_light
                params: { amount: 0.4 }
              - adjust: wb.tint
                params: { amount: 0.1 }
                strength: 50
            """
    }
}

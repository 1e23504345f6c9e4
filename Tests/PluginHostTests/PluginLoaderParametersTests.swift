import Foundation
@testable import PluginHost
import Testing

/// Malformed typed parameters (issue 52): each plugin is refused by file, adjustment and parameter, saying what is
/// wrong.
@Suite("PluginLoader: typed parameters (PluginLoader+Parameters.swift)")
struct PluginLoaderParametersTests {
    /// A plugin with one adjustment `test.typed` whose one parameter is a tone curve `master` (0…1 both ways, up to
    /// 16 points, the diagonal), after `setup` (C statements run in the entry) changed it.
    private func source(_ setup: String) -> String {
        """
        #include "lookstudio_plugin.h"
        #include <stdint.h>
        static void apply(const float *in, float *out, size_t n, const lookstudio_value *p) {
            (void)p;
            for (size_t i = 0; i < 3 * n; i++) out[i] = in[i];
        }
        static float points[] = {0.0f, 0.0f, 0.5f, 0.5f, 1.0f, 1.0f};
        static float rgb[] = {1.0f, 1.0f, 1.0f};
        static const char *names[] = {"fwd", "rev", "no-clamp"};
        static lookstudio_parameter params[] = {
            {.name = "master", .display_name = "Master", .kind = LOOKSTUDIO_PARAM_CURVE, .min = 0.0f, .max = 1.0f,
             .default_values = points, .default_count = 6, .identity_values = points, .identity_count = 6,
             .x_min = 0.0f, .x_max = 1.0f, .max_points = 16},
        };
        static lookstudio_adjustment adjustments[] = {{"test.typed", "Typed", "Test", "", params, 1, apply}};
        static lookstudio_plugin plugin = {LOOKSTUDIO_PLUGIN_ABI_VERSION, "Typed", "1", adjustments, 1};
        LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void) {
            lookstudio_parameter *m = &params[0];
            (void)rgb; (void)names; (void)m;
            \(setup)
            return &plugin;
        }
        """
    }

    /// The refusal of the plugin `source(setup)` builds, with its path checked; nil when it loads.
    private func message(_ setup: String) throws -> String? {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(source(setup), named: "typed", in: directory)
        guard case .failure(let refusal) = PluginLoader.load(path: path) else { return nil }
        let prefix = "\(path): invalid descriptor: test.typed parameter master: "
        #expect(refusal.description.hasPrefix(prefix), "\(refusal)")
        return String(refusal.description.dropFirst(prefix.count))
    }

    @Test("the well-formed curve loads with its fields")
    func wellFormed() throws {
        #expect(try message("") == nil)
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(source(""), named: "typed", in: directory)
        let parameter = try #require(try PluginLoader.load(path: path).get().adjustments.first?.parameters.first)
        #expect(parameter.kind == .curve && parameter.maxPoints == 16 && parameter.xRange == 0...1)
        #expect(parameter.defaultValue == .curve([SIMD2(0, 0), SIMD2(0.5, 0.5), SIMD2(1, 1)]))
    }

    @Test("malformed curves are refused: max_points, x range, point order, ranges, counts, NULL arrays, flags",
          arguments: [
              ("m->max_points = 0;", "max_points is 0; a curve declares 2 to 64"),
              ("m->max_points = 65;", "max_points is 65; a curve declares 2 to 64"),
              ("m->max_points = SIZE_MAX;", "max_points is 18446744073709551615; a curve declares 2 to 64"),
              ("m->x_min = 1.0f;", "x_min 1 must be a finite number below x_max 1"),
              ("m->x_max = NAN;", "x_min 0 must be a finite number below x_max nan"),
              ("points[2] = 0.0f;", "default: point 2 x=0 is not after point 1 x=0"),
              ("points[4] = 0.25f;", "default: point 3 x=0.25 is not after point 2 x=0.5"),
              ("points[3] = 1.5f;", "default: point 2 y=1.5 is outside 0…1"),
              ("points[4] = 2.0f;", "default: point 3 x=2 is outside 0…1"),
              ("m->default_count = 5;",
               "default_count is 5: a curve of 2 to 16 points (x y pairs) has 4 to 32, in pairs"),
              ("m->default_count = 2;", "default_count is 2: a curve of 2 to 16 points (x y pairs) has 4 to 32"),
              ("m->identity_count = SIZE_MAX;", "identity_count is 18446744073709551615: a curve of 2 to 16 points "
                  + "(x y pairs) has 4 to 32"),
              ("m->max_points = 2;", "default_count is 6: a curve of 2 to 2 points (x y pairs) has 4 to 4"),
              ("m->default_values = NULL;", "default_values is NULL but default_count is 6"),
              ("m->flags = LOOKSTUDIO_FLAG_WHEEL;", "LOOKSTUDIO_FLAG_WHEEL is for colours, and this is a curve"),
              ("m->flags = 8;",
               "flags 0x8 has bits that are not LOOKSTUDIO_FLAG_PERIODIC (1) or LOOKSTUDIO_FLAG_WHEEL (2)"),
              ("m->flags = LOOKSTUDIO_FLAG_PERIODIC;",
               "default: point 3 x=1 is outside 0…1 (periodic: x stays below 1, the same place as 0)"),
              ("m->choices = names;", "choices are for choice parameters; a curve leaves them NULL and 0"),
              ("points[1] = NAN;", "default: point 1 is not two finite numbers"),
          ])
    func malformedCurves(setup: String, expected: String) throws {
        #expect(try message(setup) == expected)
    }

    @Test("malformed colours and choices are refused, and so are fields of other kinds",
          arguments: [
              ("m->kind = LOOKSTUDIO_PARAM_COLOR; m->x_max = 0; m->max_points = 0;",
               "default_count is 6: a colour has 3"),
              ("m->kind = LOOKSTUDIO_PARAM_COLOR; m->x_max = 0; m->max_points = 0; m->default_values = rgb; "
                  + "m->default_count = 3; m->identity_count = 2;", "identity_count is 2: a colour has 3"),
              ("m->kind = LOOKSTUDIO_PARAM_COLOR; m->x_max = 0; m->max_points = 0; m->default_values = rgb; "
                  + "m->default_count = 3; m->identity_values = rgb; m->identity_count = 3; rgb[1] = 2.0f;",
               "default: green 2 is outside 0…1"),
              ("m->kind = LOOKSTUDIO_PARAM_COLOR; m->flags = LOOKSTUDIO_FLAG_PERIODIC;",
               "LOOKSTUDIO_FLAG_PERIODIC is for curves, and this is a color"),
              ("m->kind = LOOKSTUDIO_PARAM_COLOR;",
               "x_min, x_max and max_points are for curves; a color leaves them 0"),
              ("m->kind = LOOKSTUDIO_PARAM_SCALAR; m->x_max = 0; m->max_points = 0;",
               "default_values and identity_values are for curves and colours; a scalar leaves them NULL and 0 and "
                  + "uses default_value and identity_value"),
              (Self.choice + "m->choices = NULL;", "choices is NULL but choice_count is 3"),
              (Self.choice + "m->choice_count = 1;", "choice_count is 1; a choice has 2 to 64"),
              (Self.choice + "m->choice_count = SIZE_MAX;",
               "choice_count is 18446744073709551615; a choice has 2 to 64"),
              (Self.choice + "names[2] = \"fwd\";", "option \"fwd\" appears twice"),
              (Self.choice + "names[1] = \"Rev\";",
               "option \"Rev\" must be lowercase letters, digits, _ and -, starting with a letter"),
              (Self.choice + "m->default_value = 3.0f;", "default option index 3 is not one of 0…2"),
              (Self.choice + "m->identity_value = 0.5f;", "identity option index 0.5 is not one of 0…2"),
              (Self.choice + "m->max = 3.0f;", "a choice has min 0 and max 2 (its last option's index), not 0 and 3"),
          ])
    func malformedColoursAndChoices(setup: String, expected: String) throws {
        #expect(try message(setup) == expected)
    }

    /// Turns `master` into a well-formed choice of fwd, rev, no-clamp.
    private static let choice = "m->kind = LOOKSTUDIO_PARAM_CHOICE; m->x_max = 0; m->max_points = 0; "
        + "m->default_values = NULL; m->default_count = 0; m->identity_values = NULL; m->identity_count = 0; "
        + "m->max = 2.0f; m->choices = names; m->choice_count = 3; "

    @Test("a choice with a hyphenated option and a periodic curve load")
    func wellFormedChoiceAndPeriodic() throws {
        #expect(try message(Self.choice) == nil)
        #expect(try message("m->flags = LOOKSTUDIO_FLAG_PERIODIC; points[4] = 0.75f;") == nil)
    }
}

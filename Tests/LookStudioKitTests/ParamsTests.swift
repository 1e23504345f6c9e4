import Testing
@testable import LookStudioKit

@Suite struct ParamsTests {
    @Test func aLookStrengthOver200IsRefusedNamingIt() throws {
        let error = #expect(throws: LookStudioError.self) { try Params(look: "x", lookStrength: 250).request() }
        #expect(error?.kind == .invalidArgument)
        #expect(error?.message == "look strength 250 is out of range: use 0…200")
    }

    @Test func aNaNStrengthIsRefused() {
        var params = Params(look: "x")
        params.strength = .nan
        #expect(throws: LookStudioError.self) { try params.request() }
    }

    @Test func stagesAt100AreLeftToThePreset() throws {
        var params = Params()
        params.exposure = 50
        let request = try params.request()
        #expect(request.auto.percentages == [.exposure: 50])
        #expect(request.look == .sceneDefaults)
    }

    @Test func noLookWithANamedLookIsRefused() {
        var params = Params(look: "warm")
        params.noLook = true
        #expect(throws: LookStudioError.self) { try params.request() }
    }
}

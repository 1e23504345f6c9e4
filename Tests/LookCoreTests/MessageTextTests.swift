import LookCore
import Testing

@Suite struct MessageTextTests {
    @Test("did-you-mean finds typos, transpositions and prefixes, and nothing for an unrelated word")
    func nearest() {
        let names = ["Warm Film", "Teal & Orange", "Cyanotype", "Red Filter B&W"]
        #expect(MessageText.nearest(to: "Warm Flim", among: names) == ["Warm Film"])
        #expect(MessageText.nearest(to: "cyanotipe", among: names) == ["Cyanotype"])
        #expect(MessageText.nearest(to: "Teal", among: names) == ["Teal & Orange"])
        #expect(MessageText.nearest(to: "7C7C394", among: names).isEmpty)
        #expect(MessageText.nearest(to: "lokos", among: ["looks", "scenes", "import"]) == ["looks"])
        #expect(MessageText.nearest(to: "tone.contrst", among: ["tone.contrast", "tone.gamma"]) == ["tone.contrast"])
        #expect(MessageText.nearest(to: "", among: names).isEmpty)
    }
}

@Suite("A setting out of its range, said one way")
struct OutOfRangeTextTests {
    @Test("whole numbers lose their .0, and a Float strength reads as the percent the user gave")
    func wording() {
        #expect(TextNumber.outOfRange("--quality", 0, 1...100) == "--quality 0 is out of range: use 1…100")
        #expect(TextNumber.outOfRange("--strength", -5.0, 0...200) == "--strength -5 is out of range: use 0…200")
        #expect(LookCoreError.strengthOutOfRange(2.01).description
            == "strength 201 is out of range: use 0…200 (100 is the look as authored)")
        #expect(LookCoreError.strengthOutOfRange(-0.125).description.hasPrefix("strength -12.5 is out of range"))
    }
}

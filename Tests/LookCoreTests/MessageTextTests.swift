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

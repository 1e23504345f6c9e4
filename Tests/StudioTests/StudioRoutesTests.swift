import LookCatalog
import Testing
@testable import Studio
import Workflows

/// The HTTP status `StudioRoutes.run` gives what a handler throws (the message is the error's own text).
@Suite struct StudioRoutesTests {
    @Test func aCatalogLockedPastTheBusyTimeoutIs503() {
        #expect(StudioRoutes.status(of: CatalogError.database(path: "/c.sqlite", "database is locked"))
            == .serviceUnavailable)
    }

    @Test func aReadOnlyOrDamagedCatalogIs500AndABadRequest400() {
        #expect(StudioRoutes.status(of: CatalogError.readOnly(path: "/c.sqlite")) == .internalServerError)
        #expect(StudioRoutes.status(of: CatalogError.damaged(path: "/c.sqlite", "malformed")) == .internalServerError)
        #expect(StudioRoutes.status(of: WorkflowError.badSize(3)) == .badRequest)
        #expect(StudioRoutes.status(of: WorkflowError.noSuchPhoto(3)) == .notFound)
    }

    @Test("a size or strength out of range says which size and the range to use")
    func outOfRangeRequestsNameTheirRange() {
        #expect(StudioRoutes.status(of: WorkflowError.badPreviewSize(8)) == .badRequest)
        #expect(WorkflowError.badSize(300).description == "cube size 300 is out of range: use 2…256")
        #expect(WorkflowError.badPreviewSize(8).description == "preview size 8 is out of range: use 16…4096 pixels")
        #expect(WorkflowError.badStrength(250).description == "strength 250 is out of range: use 0…200")
    }
}

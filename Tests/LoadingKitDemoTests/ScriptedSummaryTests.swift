import Testing

@testable import loadingkit_demo

@Suite("the scripted session's summary", .timeLimit(.minutes(1)))
struct ScriptedSummaryTests {
    typealias Summary = ScriptedSession.Summary

    private func summary(
        uniqueItems: Int = 120,
        emptyPlaceholder: Bool = true,
        sharing: SharingSteps.Outcome = .init(
            detailRequests: 0,
            rolledBack: true,
            coldStartFromDisk: true,
            revalidatedConditionally: true
        ),
        offlineEdits: OutboxSteps.Outcome = .init(made: 3, shownWhileAway: 3, confirmed: 3),
        credentials: AccountSteps.Outcome = .init(renewals: 1, loaded: 5),
        live: LiveSteps.Outcome = .init(published: 4, shown: 4, resumedAfter: "2")
    ) -> Summary {
        Summary(
            pages: 4,
            items: 120,
            uniqueItems: uniqueItems,
            requests: 14,
            notModified: 3,
            emptyPlaceholder: emptyPlaceholder,
            sharing: sharing,
            offlineEdits: offlineEdits,
            credentials: credentials,
            live: live
        )
    }

    @Test("a session as scripted has no problem")
    func asScripted() {
        #expect(summary().problem == nil)
    }

    @Test("each way a session can go wrong is told")
    func problems() {
        #expect(summary(uniqueItems: 119).problem == "120 items shown, only 119 of them unique")
        #expect(summary(emptyPlaceholder: false).problem?.contains("empty placeholder") == true)
        let sharing = [
            (1, true, true, true), (0, false, true, true), (0, true, false, true),
            (0, true, true, false),
        ].map {
            SharingSteps.Outcome(
                detailRequests: $0,
                rolledBack: $1,
                coldStartFromDisk: $2,
                revalidatedConditionally: $3
            )
        }
        let told = sharing.compactMap { summary(sharing: $0).problem }
        let offline = [
            OutboxSteps.Outcome(made: 3, shownWhileAway: 2, confirmed: 3),
            .init(made: 3, shownWhileAway: 3, confirmed: 2),
        ]
        let toldOffline = offline.compactMap { summary(offlineEdits: $0).problem }
        let toldCredentials = [
            AccountSteps.Outcome(renewals: 2, loaded: 5),
            .init(renewals: 1, loaded: 4),
        ].compactMap { summary(credentials: $0).problem }
        #expect(told.count == 4)
        #expect(toldOffline.count == 2)
        #expect(toldCredentials.count == 2)
        #expect(Set(told + toldOffline).count == 6)
        #expect(
            summary(live: .init(published: 4, shown: 0, resumedAfter: "2")).problem
                == "4 live stories pushed, 0 shown once each"
        )
    }

    @Test("the summary tells every step after the main feed, in the order they ran")
    func notes() {
        let notes = summary().notes.map { $0.prefix { $0 != ":" } }
        #expect(
            notes == [
                "filter", "sharing", "renames", "cold start", "offline edits", "credentials",
                "live",
            ]
        )
        let failed = summary(
            emptyPlaceholder: false,
            sharing: .init(
                detailRequests: 2,
                rolledBack: false,
                coldStartFromDisk: false,
                revalidatedConditionally: false
            )
        ).notes
        #expect(failed[0] == "filter: the empty placeholder did not show")
        #expect(failed[1].hasSuffix("with 2 requests"))
        #expect(failed[2].hasSuffix("not rolled back"))
        #expect(
            failed[3]
                == "cold start: not shown from disk, revalidated without a conditional request"
        )
    }
}

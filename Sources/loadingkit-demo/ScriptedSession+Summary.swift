extension ScriptedSession {
    /// What the session came to.
    struct Summary: Equatable {
        let pages: Int
        let items: Int
        let uniqueItems: Int
        /// Requests the main feed sent, the filter screen's left out.
        let requests: Int
        let notModified: Int
        let emptyPlaceholder: Bool
        let sharing: SharingSteps.Outcome
        let offlineEdits: OutboxSteps.Outcome
        let credentials: AccountSteps.Outcome
        let live: LiveSteps.Outcome

        /// The summary's lines for the steps after the main feed's, one for each.
        var notes: [String] {
            [
                "filter: "
                    + (emptyPlaceholder
                        ? "nothing matched, and the empty placeholder showed"
                        : "the empty placeholder did not show"),
                "sharing: the detail showed the list's story 3 with "
                    + DemoFormat.count(sharing.detailRequests, "request"),
                "renames: one shown at once on both screens and accepted; one refused and "
                    + (sharing.rolledBack ? "rolled back on both" : "not rolled back"),
                "cold start: "
                    + (sharing.coldStartFromDisk ? "shown from disk" : "not shown from disk")
                    + ", revalidated "
                    + (sharing.revalidatedConditionally
                        ? "with a conditional request" : "without a conditional request"),
                "offline edits: \(offlineEdits.made) made while the server was away, "
                    + "\(offlineEdits.shownWhileAway) shown at once, "
                    + "\(offlineEdits.confirmed) confirmed on its return",
                "credentials: the token expired under 5 loads: "
                    + "\(DemoFormat.count(credentials.renewals, "renewal")), "
                    + "\(credentials.loaded) loaded with the new one",
                "live: \(live.published) stories pushed, \(live.shown) shown once each; "
                    + "the dropped stream resumed after event \(live.resumedAfter)",
            ]
        }

        /// What went otherwise than scripted, if anything.
        var problem: String? {
            if items != uniqueItems {
                return "\(items) items shown, only \(uniqueItems) of them unique"
            }
            if !emptyPlaceholder {
                return "the empty filter did not show the empty placeholder"
            }
            if sharing.detailRequests != 0 {
                return "the detail sent a request instead of showing the stored value"
            }
            if !sharing.rolledBack {
                return "the refused rename was not taken back on both screens"
            }
            if !sharing.coldStartFromDisk {
                return "the cold start did not show the value persisted on disk"
            }
            if !sharing.revalidatedConditionally {
                return "the cold start did not revalidate with a conditional request"
            }
            if offlineEdits.shownWhileAway != offlineEdits.made {
                return "an edit made while the server was away was not shown at once"
            }
            if offlineEdits.confirmed != offlineEdits.made {
                return "an edit made while the server was away did not reach it once"
            }
            if credentials.renewals != 1 || credentials.loaded != 5 {
                return "the expired token was not renewed once for every load it failed"
            }
            if live.shown != live.published {
                return "\(live.published) live stories pushed, \(live.shown) shown once each"
            }
            return nil
        }
    }
}

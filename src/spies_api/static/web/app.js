function Gt(e,t){for(let[n,r]of Object.entries(t))r==null||r===!1||(typeof r=="function"?e.addEventListener(n.replace(/^on/,""),r):e.setAttribute(n,r===!0?"":String(r)))}function mt(e,t){for(let n of t)n==null||n===!1||e.append(typeof n=="object"?n:String(n))}function s(e,t={},...n){let r=document.createElement(e);return Gt(r,t),mt(r,n),r}var xa="http://www.w3.org/2000/svg";function g(e,t={},...n){let r=document.createElementNS(xa,e);return Gt(r,t),mt(r,n),r}function k(e,...t){e.replaceChildren(),mt(e,t)}var Bt="seed_revealed";var F={"deck-of-spies":{seatCounts:[1],options:{strict_necessity:{default:!0},ace_counts_in_necessity:{default:!0},retire_multiple_ranks:{default:!1}},refusals:{"ace-not-available":"6.3","assassination-not-allowed":"6.1","card-not-in-hand":"4.1","duplicate-card":"4.1","illegal-command":"3","insufficient-value":"4.2","must-assassinate":"3.2","not-an-ace":"6.3","not-your-turn":"3","retire-mixed-ranks":"7.2","retire-single-card":"7.1","unnecessary-card":"4.2","wrong-suit":"5.2"},endings:{"no-ace-left":"9.3","owned-faces":"9.2"},figures:{card_values:{A:1,2:2,3:3,4:4,5:5,6:6,7:7,8:8,9:9,10:10,J:11,Q:12,K:13},spies:36,key_spies:12,win_faces:7}},"black-spy":{seatCounts:[3,4,5,6],options:{no_good_spies:{default:!1},classic:{default:!1},capture_or_release:{default:!1},mole:{default:!1},call_colour:{default:!1},follow_rank:{default:!1},reduce_points:{default:!1}},refusals:{"already-passed":"3.1","black-lead-first-trick":"4.3","card-not-in-hand":"5.1","illegal-command":"5.2","must-follow":"5.2","not-your-turn":"5.1","passing-not-over":"3.4","wrong-pass-count":"3.1"},endings:{"threshold-reached":"7"},figures:{colours:["blue","yellow","red","green","black"],star_card:"red-1",pass_size:3,spy_rank:7,black_spy_points:10,good_spy_points:-5}},"spies-and-lies":{seatCounts:[2,4],options:{board_length:{default:3},intel_cards:{default:[[1,2,3,4],[1,2,3,4],[4,5,6,7],[4,5,6,7],[7,8,9,10],[7,8,9,10]]},deception_pays_on_forced_retreat:{default:!0},deception_reserve:{default:"shared",choices:["shared","per-side"]}},refusals:{"borrow-not-exhausted":"9.6","choice-not-offered":"9","deployment-not-completable":"5.1","deployment-out-of-order":"5.1","duplicate-soldier":"5.1","illegal-command":"5","no-deception-token":"10.4","no-sergeant-deployed":"5.2","not-deploy-phase":"5.1","not-guess-step":"5.3","not-intel-phase":"5.2","not-your-turn":"5.3","outside-deception-window":"10.4","sergeant-choice-required":"5.2","soldier-exhausted":"11.1","soldier-not-in-hand":"5.1","wrong-soldier-count":"5.1"},endings:{"flag-captured":"12.1",infiltration:"12.2",territory:"12.2"},figures:{days:3,guess_turns:8,infiltration_at:10,max_board_length:20,marshal_points:10,marshal_sabotage:5,captain_points:6}}};var V=e=>e+1;function te(e,t){let n=t.replace(/ \(([^()]*)\)$/,", $1");return e.endsWith(")")&&e.includes(" (")?`${e.slice(0,-1)}, ${n})`:`${e} (${n})`}var q=F["deck-of-spies"].figures,Se=F["black-spy"].figures,X=F["spies-and-lies"].figures,Ea={A:"Ass",J:"Bube",Q:"Dame",K:"König"},Ra={C:"Kreuz",D:"Karo",H:"Herz",S:"Pik"},_a={blue:"blau",yellow:"gelb",red:"rot",green:"grün",black:"schwarz"},zt=e=>e.charAt(0).toUpperCase()+e.slice(1),ne=(e,t)=>e[t]??t,Nt={langName:"Deutsch",switchTo:"English",switchLabel:"Language: English",appName:"Spies",loading:"Lädt …",lobby:"Lobby",rules:"Regeln",notFound:"Nicht gefunden",backToLobby:"Zurück zur Lobby",you:"du",seat:e=>`Platz ${V(e)}`,spectator:"Zuschauer",botNamed:e=>`Bot ${e}`,and:"und",seatWithYou:e=>te(e,"du"),lobbyTitle:"Spies: Lobby",lobbyIntro:"Deck of Spies, Black Spy und Stratego Spies & Lies auf einer ereignisbasierten Engine.",apiDocs:"API-Dokumentation",rulesOf:e=>`Regeln von ${e}`,myName:"Dein Anzeigename ",newGame:"Neues Spiel",gameLabel:"Spiel ",seatsLabel:" Plätze ",seedLabel:"Seed ",seedPlaceholder:"optional: ein wiederholbares Spiel (kein offener Platz)",fairLabel:"Faires Geben: Zufall aus diesem Browser einmischen",fairHint:"Der Server legt sich zuerst auf seinen geheimen Seed fest, dann gibt dieser Browser eigenen Zufall dazu: niemand allein wählt die Karten, und die Wiederholung prüft es am Ende.",commitmentBroken:"Der Server hat seine Festlegung nicht eingehalten: Der Seed dieses Spiels ist nicht der, auf den er sich vor deinem Zufall festgelegt hat. Spiel es nicht.",createHint:"Du hältst den Schlüssel jedes Platzes mit „ich“; ein offener Platz wartet auf seinen Link.",create:"Anlegen",options:"Optionen",whoPlays:"Wer spielt welchen Platz",seatMe:"ich",seatOpen:"offen (Link teilen)",seatBot:e=>`Bot: ${e}`,clockLegend:"Uhr",clockNone:"keine Uhr",clockTurn:e=>`${e} s je Zug`,clockBudget:e=>`${e} min je Platz`,gameCreated:"Spiel angelegt",shareHint:"Schick den Link jedes offenen Platzes an einen Mitspieler:",toTable:"Zum Tisch",watchTable:"Tisch ansehen",typeNameFirst:"Gib zuerst deinen Anzeigenamen ein.",noOpenGame:"Kein Spiel wartet auf Mitspieler.",openCaption:e=>e===1?"1 Spiel mit offenem Platz":`${e} Spiele mit offenem Platz`,openHeads:["Spiel","Id","Besetzt","Offene Plätze",""],joinSeat:e=>`Platz ${V(e)} übernehmen`,joinFirst:"Ersten offenen Platz übernehmen",noGame:"Noch kein Spiel.",gamesCaption:e=>e===1?"1 Spiel, neueste zuerst":`${e} Spiele, neueste zuerst`,gamesHeads:["Spiel","Id","Plätze","Stand","Version",""],finished:"beendet",toActList:e=>`am Zug: ${e}`,play:"Spielen",watch:"Ansehen",replay:"Wiederholung",myGamesTitle:"Meine Spiele",keepMyGames:"Meine Spiele merken",keepMyGamesHint:"Legt für diesen Browser einen Spieler an: die Spiele, die du danach erstellst oder betrittst, stehen hier, mit einem Weg zurück an deinen Platz, auch wenn dieser Browser ihn vergisst.",noMyGame:"Noch keines: erstelle ein Spiel oder tritt einem bei.",myGamesHeads:["Spiel","Id","Platz","Stand",""],backToSeat:"Zurück an meinen Platz",openSeatsTitle:"Offene Plätze",gamesTitle:"Spiele",showGames:"Spiele zeigen",inProgress:"laufend",allGames:"alle Spiele",joinTitle:e=>`Platz ${V(e)} übernehmen`,joinTitleOf:(e,t)=>`Platz ${V(e)} von ${t} übernehmen`,watchThisGame:"Dieses Spiel ansehen",alreadyHeld:"Du hältst diesen Platz schon. ",goToTable:"Zum Tisch",takeSeat:e=>`Platz ${V(e)} nehmen`,othersTitle:e=>`${e} Plätze; die anderen:`,joinName:"Dein Anzeigename (die anderen sehen ihn)",typeName:"Gib zuerst einen Anzeigenamen ein.",seatTaken:e=>`${e} ist besetzt: jemand war schneller.`,thisSeat:"Dieser Platz",seatCapital:e=>`Platz ${V(e)}`,noOpenSeat:"Alle Plätze dieses Spiels sind besetzt.",joinOver:"Dieses Spiel ist vorbei: seine Plätze sind nicht mehr frei.",noSuchSeat:e=>`Dieses Spiel hat keinen ${e}.`,suchSeat:"solchen Platz",noSuchGame:"Dieses Spiel gibt es auf diesem Server nicht.",badName:e=>`Dieser Name geht nicht: ${e}`,kindOpen:"offen",kindCreator:"Gastgeber",kindJoined:"beigetreten",kindBot:e=>`Bot ${e}`,kindPlayedBy:(e,t)=>`${e}, gespielt von Bot ${t}`,game:"Spiel",playAs:"Spielen als ",log:"Verlauf",logLabel:"Was geschah",seatLinks:"Private Platz-Links (wer einen Link hat, spielt diesen Platz)",seatLink:e=>`Link von ${e}`,documentTitle:e=>`${e} · spies`,seats:"Plätze",yours:", deiner",shareLink:e=>`Einladungslink von ${e}`,botSelect:"Bot für meinen Platz",bot:"Bot ",handToBot:"Den Bot für mich spielen lassen",takeBack:"Meinen Platz zurücknehmen",yourTurn:e=>`Du bist am Zug (${e}).`,botPlaysYourTurn:(e,t)=>`Bot ${e} spielt deinen Zug (${t}).`,waitingFor:e=>`Warten auf ${e}.`,waitingForPlayers:e=>e===1?"Warten auf Mitspieler: 1 Platz ist frei.":`Warten auf Mitspieler: ${e} Plätze sind frei.`,dealWhenFull:"Die Karten werden verteilt, sobald der letzte freie Platz besetzt ist. Schick jedem freien Platz seinen Link:",neverDealt:"Nichts wurde verteilt: Der Tisch wurde nie voll.",openUntil:e=>`Ist der Tisch bis ${e} nicht voll, wird das Spiel abgebrochen.`,switchSeats:e=>` Du hältst ${e}: wechsle den Platz, um zu spielen.`,gameOverTitle:"Spiel vorbei",gameOverShort:"Spiel vorbei.",scoresTitle:"Endstand",rematch:"Revanche",joinRematch:"Zur Revanche",watchRematch:"Revanche ansehen",replayGame:"Dieses Spiel nachspielen",refused:e=>`Abgelehnt: ${e}`,noRematch:(e,t)=>`Keine Revanche für ${e}: ${t}`,tableMoved:"Der Tisch hat sich bewegt, bevor dein Zug ankam: wähle neu.",badSeatLink:e=>`Dieser Platz-Link gilt nicht: ${e}`,ruleLink:e=>`Regel §${e}`,theRules:"die Regeln",rulesOfThisGame:"Regeln dieses Spiels",clocks:"Uhren",clockOf:e=>`Uhr von ${e}`,clockRunning:"läuft",clockLow:"unter zehn Sekunden",clockNoLimit:"ohne Limit",youWin:"Du hast gewonnen!",youLose:"Du hast verloren.",draw:"Unentschieden.",winsOne:e=>`${zt(e)} gewinnt.`,winsShared:e=>`${zt(e)} teilen sich den Sieg.`,noWinner:"Niemand gewinnt.",endedAborted:"Spiel vom Betreiber abgebrochen.",endedAbortedWhy:"Der Betreiber hat dieses Spiel beendet, bevor seine Regeln es taten: niemand gewinnt.",endedAbandoned:"Spiel aufgegeben.",endedAbandonedWhy:"Seine offenen Plätze wurden nicht rechtzeitig besetzt: niemand gewinnt.",deckWon:e=>`Alle ${q.spies} Spione sind erledigt, und ${e} der ${q.key_spies} wichtigsten Spione (Buben, Damen und Könige) arbeiten für dich: ${q.win_faces} waren nötig.`,deckLostFaces:e=>`Alle ${q.spies} Spione sind erledigt, aber nur ${e} der ${q.key_spies} wichtigsten Spione (Buben, Damen und Könige) arbeiten für dich: ${q.win_faces} waren nötig.`,deckLostAces:e=>`Ein Spion musste ausgeschaltet werden, und kein Ass war mehr zu opfern: das Spiel ist sofort verloren, egal wie viele wichtige Spione du hattest (${e} von ${q.key_spies}).`,bsEnded:e=>`Nach einer Runde hat jemand ${e} Punkte erreicht: das Spiel endet, und die niedrigste Summe gewinnt.`,bsTotals:e=>`Summen (die niedrigste gewinnt): ${e}.`,slFlag:(e,t)=>`${e} hat den Doppelspion auf die Fahne von ${t} gezogen: eine eroberte Fahne beendet das Spiel sofort, egal wie die Infiltrationspunkte stehen.`,slTerritory:(e,t)=>`Nach dem ${X.days}. Tag steht der Doppelspion im Gebiet von ${t}: ${e} gewinnt, egal wie weit er gekommen ist.`,slInfiltration:`Nach dem ${X.days}. Tag steht der Doppelspion in der Mitte: der höhere Infiltrationsturm gewinnt.`,slInfiltrationDraw:`Nach dem ${X.days}. Tag steht der Doppelspion in der Mitte, und beide Infiltrationstürme stehen gleich: unentschieden.`,slMarkers:e=>`Infiltrationstürme (sie entscheiden nur in der Mitte): ${e}.`,deckScore:e=>`Wichtige Spione im Besitz: ${e} von ${q.key_spies} (${q.win_faces} gewinnen).`,reasonRule:"Die entscheidende Regel",scoreOf:(e,t)=>`${e}: ${t}`,sideOf:(e,t)=>`${e}: ${t}`,yourMoves:"Deine Züge",noMove:"Gerade hast du keinen Zug.",yourHand:"Deine Hand",handHidden:"Hand (Zuschauer: verdeckt)",legend:"Legende",evCreated:(e,t,n)=>`Spiel angelegt: ${e}, ${t===1?"1 Platz":`${t} Plätze`}; Seed-Zusage ${n}…`,evJoined:(e,t)=>`${e} übernimmt ${t}.`,evHanded:(e,t)=>`${e} spielt jetzt Bot ${t}.`,evTakenBack:e=>`${e} ist vom Bot zurückgenommen.`,evClaimed:e=>`${e} ist für die Revanche belegt.`,evEntropy:e=>e===null?"Der Zufall des Erstellers geht ins Geben ein.":`${e} gibt Zufall ins Geben.`,evSeed:e=>`Der Seed ist aufgedeckt (${e}…): jedes Mischen lässt sich jetzt prüfen.`,evExpired:e=>`Die Zeit von ${e} ist abgelaufen: die Zeitregel entscheidet den Zug.`,evForfeit:e=>`Die Zeit von ${e} ist abgelaufen: ${e} verliert.`,evResumed:"Der Server war weg: jede laufende Uhr läuft dort weiter, wo sie stand.",evClocks:"Die Uhren sind gestellt.",evAborted:e=>`Das Spiel ist vom Betreiber abgebrochen: ${e}`,evAbandoned:e=>`Das Spiel ist aufgegeben: ${e}`,evOther:e=>`${e}.`,deckTitle:"Deck of Spies",deckRank:e=>Ea[e]??e,deckSuit:e=>Ra[e]??e,deckCard:(e,t)=>`${t}-${e}`,deckCounter:"abwehren",deckRecruit:"anwerben",deckWith:(e,t,n,r)=>`${e} mit ${t} (${n})${r===""?"":`, in Rente: ${r}`}`,deckAssassinate:e=>`ausschalten mit ${e}`,deckStarted:(e,t)=>`Im Spionstapel liegen ${e} Spione, in deinem Ziehstapel ${t} Karten.`,deckDrewCount:e=>e===1?"1 Karte gezogen.":`${e} Karten gezogen.`,deckDrew:e=>`Gezogen: ${e}.`,deckRevealed:(e,t)=>`Zug ${e}: der Spion ${t} kommt.`,deckCountered:(e,t)=>`${e} abgewehrt mit ${t}.`,deckRecruited:(e,t,n)=>`${e} angeworben mit ${t}${n===""?"":` (Doppelagent ${n})`}.`,deckAssassinated:(e,t,n)=>`${e} ausgeschaltet mit ${t} (aus: ${n}).`,deckRetiredCount:e=>`${e} Karten in Rente geschickt.`,deckRetired:e=>`In Rente geschickt: ${e}.`,deckReshuffled:e=>`Der eigene Ablagestapel (${e} Karten) wird in den Ziehstapel gemischt.`,deckShuffled:e=>`Der Ziehstapel (${e} Karten) wird gemischt.`,deckEndedWon:e=>`Spiel vorbei: gewonnen, mit ${e} von ${q.key_spies} wichtigen Spionen.`,deckEndedLost:e=>`Spiel vorbei: verloren, mit ${e} von ${q.key_spies} wichtigen Spionen.`,deckZone:e=>ne({hand:"Hand",draw_deck:"Ziehstapel",draw_discard:"eigener Ablagestapel"},e),deckHintPick:"Wähle einen Zug, oder wähle Handkarten (auch die für die Rente), um die Züge mit genau diesen Karten zu sehen.",deckHintNone:e=>`Kein erlaubter Zug nutzt genau ${e}.`,deckSpyDeck:"Spionstapel",deckNoSpy:"kein Spion aufgedeckt",deckSpiesLeft:e=>e===1?"noch 1 Spion":`noch ${e} Spione`,deckDrawDeck:"Ziehstapel",deckDrawDeckCards:e=>`Ziehstapel, ${e} Karten`,deckCards:e=>e===1?"1 Karte":`${e} Karten`,deckKeySpies:"Wichtige Spione",deckOwnedOf:`von ${q.key_spies} im Besitz (${q.win_faces} gewinnen)`,deckTurn:e=>`Zug ${e}`,deckHandTotal:e=>`Deine Hand, Summe ${e}`,deckDiscard:"Eigener Ablagestapel",deckEmpty:"leer",deckSpyDiscard:"Spion-Ablagestapel",deckRemoved:"Aus dem Spiel",deckNone:"keine",deckStrict:"Strenge Notwendigkeit",deckAceCounts:"Ass zählt bei der Notwendigkeit",deckRetireMany:"Mehrere Werte in Rente schicken",bsTitle:"Black Spy",bsColour:e=>ne(_a,e),bsCardName:(e,t)=>`${e} ${t}`,bsNames:["","Informant","Verhörer","Infiltrator","Saboteur","Attentäter","Agent","Spion","Doppelagent","Codeknacker","Vizedirektor","Direktor"],bsPass:e=>`${e} weitergeben`,bsPlay:e=>`${e} spielen`,bsStarted:(e,t)=>`${e} Spieler; ${t} gibt zuerst.`,bsDealt:(e,t,n,r)=>`Runde ${e}: ${t} gibt jedem ${n} Karten; weitergeben nach ${r}.`,bsPassed:(e,t,n)=>`${e} gibt ${Se.pass_size} Karten an ${t} weiter${n===""?"":`: ${n}`}.`,bsExchangedFirst:e=>`Die weitergegebenen Karten wechseln die Hand; ${e} eröffnet den ersten Stich.`,bsPlayed:(e,t)=>`${e} spielt ${t}.`,bsTrickWon:(e,t,n)=>`${e} gewinnt Stich ${t} (${n===1?"1 Punkt":`${n} Punkte`}).`,bsDealScored:(e,t)=>`Runde ${e} gewertet: ${t}.`,bsGameEnded:(e,t)=>`Spiel vorbei: ${e} ${t?"teilen sich den Sieg":"gewinnt"} mit der niedrigsten Summe.`,bsDirection:e=>ne({left:"links",right:"rechts",across:"gegenüber"},e),bsPhase:e=>ne({passing:"Weitergeben",playing:"Stichspiel",over:"vorbei"},e),bsHintPlay:"Spiel eine der hervorgehobenen Karten deiner Hand.",bsHintPass:(e,t)=>`Wähle ${Se.pass_size} Handkarten, die du an ${e} weitergibst (${t} gewählt).`,bsHintCannot:"Diese Karten lassen sich nicht zusammen weitergeben.",bsDealer:"Geber",bsPassedTag:"hat weitergegeben",bsToAct:"am Zug",bsSeatStats:(e,t,n,r)=>`${e} Karten · Stiche ${t} Karten, ${n} Pkt. · Summe ${r}`,bsDealLine:(e,t,n,r,o)=>`Runde ${e} · weitergeben nach ${t} · ${n} · Stich ${r} · Ende bei ${o} Punkten (die niedrigste Summe gewinnt)`,bsTrick:"Stich",bsTrickTurn:(e,t)=>`Stich ${e}, ${t} ist dran`,bsNoCard:"noch keine Karte",bsLastTrick:(e,t)=>`${te("Letzter Stich",e)}: ${t} Pkt.`,bsYouPassed:e=>`Du hast ${e} weitergegeben.`,bsYouReceived:e=>`Du hast ${e} bekommen.`,bsScores:"Punkte je Runde",bsDeal:"Runde",bsTotal:"Summe",bsNoGoodSpies:`Ohne gute Spione (bunte ${Se.spy_rank}er zählen 0)`,bsClassic:"Klassische Regeln von 1981",bsScoreLabel:"Punkte (die niedrigste Summe gewinnt)",bsLegendColours:"Farben, jede mit eigenem Zeichen:",bsLegendSpy:`${Se.spy_rank} (Hut): ein Spion. Ein schwarzer Spion kostet ${Se.black_spy_points} Punkte, ein bunter zieht ${-Se.good_spy_points} ab.`,bsLegendBlack:"Schwarze Karten kosten Punkte: 1–6 je einen, 8–11 zwei bis fünf.",bsLegendStar:"★ (auf der niedrigsten roten Karte): wer sie hat, eröffnet den ersten Stich.",bsLegendFollow:"Bedienen mit der Farbe oder dem Rang der ersten Karte; nur die Eröffnungsfarbe gewinnt den Stich.",slTitle:"Stratego Spies & Lies",slSide:e=>["Rot","Blau"][e]??`Seite ${e}`,slSideCap:e=>["Rot","Blau"][e]??`Seite ${e}`,slSoldiers:["","Spionin","Aufklärer","Mineur","Feldwebel","Leutnant","Kapitän","Bombe","Oberst","General","Feldmarschall"],slSoldier:(e,t)=>`${e} ${t}`,slDeployOn:(e,t)=>`${e} auf Mission ${t}`,slDeploy:e=>`aufstellen: ${e}`,slMark:"eine Erkundungsmarke auf den Feldwebel legen",slNoMark:"den Feldwebel unmarkiert lassen",slConfirm:"die Erkundungsmarken bestätigen",slDeceive:"eine Täuschungsmarke spielen",slDecline:"keine Täuschungsmarke spielen",slGuess:e=>`${e} raten`,slMarshalPoints:`Feldmarschall: ${X.marshal_points} Punkte nehmen`,slMarshalSabotage:`Feldmarschall: Sabotage (${X.marshal_sabotage} Punkte, der Gegner verliert ${X.marshal_sabotage})`,slCaptainPoints:`Kapitän: ${X.captain_points} Punkte nehmen`,slCaptainBorrow:e=>`Kapitän: den erschöpften ${e} ausleihen`,slStarted:e=>`${e} Spieler; die erste Erkundungskarte liegt offen.`,slDeployed:(e,t,n,r)=>`${te(e,t)} stellt ${n} Soldaten auf${r===""?"":`: ${r}`}.`,slIntelTurned:(e,t)=>`Tag ${e}: die Erkundungskarte zeigt ${t}.`,slIntelMarked:e=>`${e} hat seine Erkundungsmarken gelegt.`,slIntelRevealed:e=>`Erkundungsmarken aufgedeckt${e===""?"":`; ${e} beginnt`}.`,slDeceived:(e,t)=>`${e} spielt eine Täuschungsmarke auf Mission ${t}.`,slDeclined:(e,t)=>`${e} spielt keine Täuschungsmarke auf Mission ${t}.`,slRevealed:(e,t,n,r,o,i,l)=>`${e} rät ${t} bei Mission ${r} von ${n}: es ist ${o}, ${i?"richtig":"falsch"}${l===""?"":`, zurückgedrängt von ${l}`}.`,slPoints:e=>e===1?"1 Infiltrationspunkt":`${e} Infiltrationspunkte`,slGained:(e,t,n,r,o)=>`${e} bekommt ${t} (${n}), Turm bei ${r}${o?": Infiltration!":"."}`,slLost:(e,t,n)=>`${e} verliert ${t}, Turm bei ${n}.`,slSteps:e=>e===1?"1 Feld":`${e} Felder`,slMoved:(e,t,n,r)=>`${e} zieht den Doppelspion ${t} (${n}) auf ${r}.`,slEffectName:e=>ne({scout:"Aufklärer",spy:"Spionin",miner:"Mineur",bomb:"Bombe"},e),slForcedBy:e=>ne({bomb:"der Bombe",spy:"der Spionin",miner:"dem Mineur"},e),slPointSource:e=>ne({guess:"richtiger Tipp",soldier:"Soldat",deception:"Täuschung"},e),slMoveCause:e=>ne({infiltration:"Infiltration",lieutenant:"Leutnant",general:"General"},e),slEffect:(e,t)=>`${e}: Die Wirkung „${t}“ gilt bis zum Ende des Tages.`,slMarshal:(e,t)=>`Feldmarschall von ${e}: ${t}.`,slCaptainTook:e=>`Der Kapitän von ${e} nimmt ${X.captain_points} Punkte.`,slCaptainBorrowed:(e,t)=>`Der Kapitän von ${e} leiht ${t} aus.`,slTokenGained:e=>`${e} bekommt eine Täuschungsmarke.`,slDoubleDamage:e=>`${e} verdient doppelten Schaden.`,slFlagCaptured:e=>`${e} erobert die Fahne!`,slDayEnded:(e,t)=>`Tag ${e} endet; ${t} beginnt den nächsten.`,slEndedDraw:"Spiel vorbei: unentschieden.",slEnded:e=>`Spiel vorbei: ${e} gewinnt.`,slReason:e=>ne({"flag-captured":"Fahne erobert",territory:"Gebiet",infiltration:"Infiltration"},e),slBoardLabel:(e,t)=>`Doppelspion auf ${e} (rote Fahne bei -${t}, blaue Fahne bei +${t})`,slDoubleAgent:"Doppelspion",slInfiltrationOf:e=>`Infiltration von ${e}`,slTowerText:e=>`Infiltration ${e} von ${X.infiltration_at}`,slMission:e=>`Mission ${e}`,slFaceDownSoldier:e=>`Soldat von ${e}, verdeckt`,slEmpty:"leer",slIntelToken:"Erkundungsmarke",slDeceptionToken:"Täuschungsmarke",slIntel:"Erkundung",slDeception:"Täuschung",slFaceDown:"verdeckt",slYou:", du",slSideStats:(e,t)=>`${e} auf der Hand · ${t===1?"1 Täuschungsmarke":`${t} Täuschungsmarken`}`,slDoubleDamageTag:" · doppelter Schaden",slEffects:e=>` · Wirkungen: ${e}`,slExhausted:"Erschöpft: ",slHintDeploy:(e,t)=>`Wähle ${t} Soldaten deiner Hand zum Aufstellen (${e} gewählt); die Missionen nehmen sie aufsteigend, den Feldwebel überall.`,slHintCannot:"Diese Soldaten lassen sich nicht aufstellen.",slHintWhere:"Wähle, wohin sie kommen:",slDayLine:(e,t)=>`Tag ${e} von ${X.days} · ${t}`,slGuessTurn:e=>` · Ratezug ${e} von ${X.guess_turns}`,slGuesses:e=>` · ${e} rät`,slPhase:e=>ne({setup:"Vorbereitung",deploy:"Aufstellung",intel:"Erkundung",mission:"Mission",over:"vorbei"},e),slStage:e=>ne({deception:"Täuschung",guess:"Raten",marshal:"Feldmarschall",captain:"Kapitän"},e),slBoard:"Spielbrett",slIntelLabel:"Erkundung: ",slNotTurned:"noch nicht aufgedeckt",slOldIntel:(e,t,n)=>` · alt: ${e} · noch ${t} · Reserve ${n}`,slBoardLength:"Brettlänge (Felder bis zu jedem Tor)",slDeceptionPays:"Täuschung zahlt sich beim erzwungenen Rückzug aus",slReserve:"Reserve-Täuschungsmarken",slScoreLabel:"Infiltrationsturm",slLegendFlag:"Fahne: steht der Doppelspion auf der gegnerischen Fahne, ist das Spiel sofort gewonnen.",slLegendAgent:"Schwarze Scheibe: der Doppelspion. Unter 0 liegt das Gebiet von Rot, über 0 das von Blau.",slLegendSideways:"Eine quer gelegte Karte hat den Rückzug angetreten (richtig geraten, enttarnt).",slLegendFaceUp:"Eine aufrecht offene Karte ist aktiviert (ihre Fähigkeit wurde genutzt).",slLegendIntel:"Erkundung: eine Erkundungsmarke auf der Mission (der Rang steht auf der Erkundungskarte).",slLegendDeception:"Täuschung: eine Täuschungsmarke auf der Mission.",slLegendTower:`Balken: der Infiltrationsturm der Seite (bei ${X.infiltration_at} zieht der Doppelspion ein Feld).`,replayTitle:(e,t)=>`Wiederholung: ${e} · ${t}`,replayDocTitle:e=>`Wiederholung · ${e}`,replayStep:"Schritt",replayStepOf:(e,t)=>`Schritt ${e} von ${t}`,replayInProgress:"Läuft noch: die Wiederholung zeigt, was der gewählte Blick sehen darf.",headHash:"Kopf-Hash: ",verifying:"Das Protokoll wird in diesem Browser geprüft …",verifiedOk:e=>`In diesem Browser geprüft: die Hash-Kette, der Seed, jedes Mischen und jeder Zug.${e>0?` ${e} ${e===1?"Zug":"Züge"} anderer Bots als random nicht nachgerechnet.`:""}`,verifyFailed:(e,t)=>`Prüfung fehlgeschlagen${e===null?"":` bei Ereignis ${e}`}: ${t}.`,receiptsHeld:e=>e===0?"":` Das Protokoll enthält ${e===1?"die Quittung":`die ${e} Quittungen`}, die der Server diesem Browser signiert hat.`,verifyUnavailable:"Nicht geprüft: der Export ließ sich nicht laden.",viewAs:"Ansehen als ",download:"Export herunterladen (JSON Lines)",table:"Tisch",stepThrough:"Schritt für Schritt durch das Spiel",firstStep:"erster Schritt",previousStep:"vorheriger Schritt",nextStep:"nächster Schritt",lastStep:"letzter Schritt",beforeFirst:"Vor dem ersten Ereignis.",hiddenEvent:"Ein verdecktes Ereignis.",rulesTitle:e=>`Regeln: ${e}`,rulesGoTo:"Zum Abschnitt",rulesGo:"Los",rulesSearch:"In den Regeln suchen",rulesNoSection:e=>`Einen Abschnitt ${e} gibt es nicht.`,rulesMatches:e=>e===1?"1 Abschnitt passt.":`${e} Abschnitte passen.`,rulesContents:"Inhalt",rulesOther:"Die anderen Spiele",rulesSummaryNote:"Dies ist eine deutsche Zusammenfassung der Regeln mit denselben Abschnittsnummern; die vollständige Regelreferenz steht unten auf Englisch.",rulesUnknown:"Für dieses Spiel gibt es hier keine Regeln.",deadUnknownGameTitle:"Dieses Spiel gibt es nicht",deadUnknownGame:e=>`Dieser Server hat kein Spiel ${e}: der Link ist vielleicht vertippt, oder das Spiel lief auf einem anderen Server.`,deadServerDownTitle:"Der Server antwortet nicht",deadServerDown:"Die Seite erreicht ihren Server nicht: vielleicht startet er gerade neu. Versuch es gleich noch einmal.",deadTryAgain:"Noch einmal versuchen",deadNewGame:"In der Lobby ein neues Spiel anlegen",seatNoticeTitle:"Du schaust als Zuschauer zu",seatNoticeNone:"Dieser Browser hält keinen Platz in diesem Spiel.",seatNoticeRefused:e=>`Der Server hat den Schlüssel abgelehnt, den dieser Browser für ${e} hatte (er gehört zu einem anderen Server, oder dessen Datenbank wurde zurückgesetzt); dieser Browser hat ihn vergessen.`,seatNoticeLink:"Der Server hat diesen Platz-Link abgelehnt: er ist vertippt oder abgeschnitten, oder er gehört zu einem anderen Spiel oder Server.",seatNoticeWatch:"Jedes Spiel kann man ansehen: du siehst, was Zuschauer sehen, alle Hände verdeckt.",seatNoticeForward:"Um deinen Platz zu spielen, öffne den privaten Link deines Platzes noch einmal (die Adresse mit #token=… am Ende): wer das Spiel angelegt hat, kann ihn auf seiner Seite kopieren. Oder:",gameOverNoMoves:"Dieses Spiel ist vorbei: hier kann niemand mehr ziehen.",problems:{"not-your-turn":"Du bist nicht am Zug.","game-over":"Das Spiel ist vorbei.","illegal-command":"Die Regeln erlauben diesen Zug jetzt nicht.","unknown-card":"Diese Karte gibt es in diesem Spiel nicht.","card-not-in-hand":"Diese Karte hast du nicht auf der Hand.","duplicate-card":"Eine Karte ist doppelt, oder benutzt und zugleich in Rente geschickt.","insufficient-value":"Die Karten ergeben weniger als den Wert des Spions.","unnecessary-card":"Eine Karte ist überflüssig: ohne sie schlagen die Karten den Spion auch.","wrong-suit":"Zum Anwerben müssen alle Karten die Farbe des Spions haben (oder ein Ass dieser Farbe macht sie dazu).","must-assassinate":"Deine Hand reicht nicht gegen den Spion: du musst ihn mit einem Ass ausschalten.","not-an-ace":"Nur ein Ass kann geopfert werden, um einen Spion auszuschalten.","ace-not-available":"Dieses Ass gehört dir nicht mehr.","assassination-not-allowed":"Ausschalten darfst du nur, wenn deine Hand den Spion nicht schlagen kann.","retire-single-card":"In Rente gehen mindestens zwei Karten desselben Werts.","retire-mixed-ranks":"In Rente gehen nur Karten eines einzigen Werts.","wrong-pass-count":`Gib genau ${Se.pass_size} Karten weiter.`,"already-passed":"Du hast in dieser Runde schon weitergegeben.","passing-not-over":"Gespielt wird erst, wenn alle weitergegeben haben.","must-follow":"Du hast eine Karte der Eröffnungsfarbe oder des Eröffnungsrangs: spiel eine davon.","black-lead-first-trick":"Der erste Stich darf nicht mit einer schwarzen Karte eröffnet werden.","not-deploy-phase":"Soldaten werden nur in der Aufstellung aufgestellt.","wrong-soldier-count":"Stell die richtige Zahl von Soldaten auf.","duplicate-soldier":"Derselbe Soldat ist zweimal aufgestellt.","soldier-exhausted":"Dieser Soldat ist heute erschöpft.","soldier-not-in-hand":"Diesen Soldaten hast du nicht auf der Hand.","deployment-out-of-order":"Die Missionen müssen aufsteigend belegt sein (der Feldwebel darf überall hin).","deployment-not-completable":"Mit den übrigen Soldaten ließe sich die Aufstellung nicht vollenden.","not-intel-phase":"Erkundungsmarken werden nur in der Erkundung gelegt.","no-sergeant-deployed":"Kein Feldwebel zum Markieren: bestätige die Erkundung.","sergeant-choice-required":"Dein Feldwebel steht: entscheide zuerst über seine Erkundungsmarke.","not-guess-step":"Jetzt wird nicht geraten.","no-deception-token":"Du hast keine Täuschungsmarke für diese Mission.","outside-deception-window":"Täuschungsmarken werden nur während des gegnerischen Ratens gespielt.","choice-not-offered":"Diese Wahl steht gerade nicht offen.","borrow-not-exhausted":"Der Kapitän leiht nur einen deiner eigenen erschöpften Soldaten aus.","deadline-passed":"Deine Zeit lief ab, bevor dein Zug ankam: die Zeitregel hat entschieden.","version-conflict":"Ein anderer Zug wurde zuerst gespeichert.","malformed-body":"Die Anfrage ließ sich nicht lesen (fehlerhafter oder unvollständiger Inhalt).","invalid-parameter":"Ein Parameter der Anfrage ist nicht verwendbar.",unauthorized:"Diese Seite hat keinen gültigen Schlüssel für den Platz: öffne den privaten Link deines Platzes noch einmal.",forbidden:"Dieser Schlüssel gehört zu einem anderen Spiel.","not-your-seat":"Dieser Schlüssel gehört zu einem anderen Platz.","bad-request":"Der Server konnte die Anfrage nicht lesen.","not-found":"Diese Seite gibt es auf diesem Server nicht.","method-not-allowed":"Diese Anfrage nimmt der Server hier nicht an.","not-acceptable":"In der verlangten Form kann der Server nicht antworten.","body-too-large":"Die Anfrage ist zu groß.","uri-too-long":"Die Adresse ist zu lang.","unsupported-media-type":"Diese Art von Anfrage kann der Server nicht lesen.","too-many-requests":"Zu viele Anfragen von dieser Adresse: warte einen Moment und versuch es noch einmal.","headers-too-large":"Die Kopfzeilen der Anfrage sind zu groß.","game-not-found":"Dieses Spiel gibt es auf diesem Server nicht.","seq-out-of-range":"Diesen Schritt hat das Spiel nicht.","replay-seat-hidden":"Die Karten dieses Platzes bleiben bis zum Spielende verdeckt.","game-not-finished":"Das Spiel ist noch nicht vorbei.","seat-not-found":"Diesen Platz hat das Spiel nicht.","seat-taken":"Dieser Platz ist besetzt: jemand war schneller.","no-open-seat":"Alle Plätze dieses Spiels sind besetzt.","seat-not-handed":"Für diesen Platz spielt kein Bot.","handed-seat-not-moved":"Der Bot hat für diesen Platz noch nicht gezogen: versuch es nach seinem Zug noch einmal.","invalid-seats":"Die Plätze passen nicht zur Zahl der Spieler.","invalid-clock":"Mit dieser Uhr kann das Spiel nicht laufen.","fixed-deal-with-open-seat":"Ein Spiel mit offenem Platz kann keinen Seed haben: wer es anlegt, kennte die Karten der Mitspieler. Lass den Seed leer oder besetze jeden Platz.","invalid-name":`Dieser Name geht nicht: 1 bis ${40} druckbare Zeichen.`,"unknown-bot":"Diesen Bot gibt es für dieses Spiel nicht.","idempotency-key-reused":"Diese Anfrage wurde schon mit anderem Inhalt gesendet.","unknown-game":"Dieses Spiel kennt der Server nicht.","unknown-option":"Diese Option hat das Spiel nicht.","invalid-options":"Eine Option hat einen Wert, den das Spiel nicht annimmt.","invalid-players":"Mit so vielen Spielern wird das Spiel nicht gespielt.","invalid-deal":"Diese Verteilung ist keine gültige Verteilung für das Spiel.","invalid-seed":"Dieser Seed ist nicht verwendbar.","unknown-commitment":"Diese Seed-Zusage kennt der Server nicht: fordere eine neue an.","commitment-used":"Diese Seed-Zusage wurde schon verwendet: fordere eine neue an.","commitment-expired":"Diese Seed-Zusage ist abgelaufen: fordere eine neue an.","invalid-entropy":"Deine Entropie ist kein gültiges Hex der erlaubten Länge, oder ihr fehlt die Seed-Zusage.","entropy-not-accepted":"Dieses Spiel nimmt keine Entropie von dir an: nur Spiele mit einer Seed-Zusage tun das.","too-many-commitments":"Du hältst so viele unbenutzte Seed-Zusagen, wie dieser Server erlaubt: nutze eine oder warte.","unsupported-variant":"Diese Variante unterstützt die Engine nicht.","wrong-game-command":"Dieser Zug gehört zu einem anderen Spiel.","not-started":"Das Spiel hat noch nicht begonnen: es wartet auf Mitspieler.","invalid-rank":"Einen Soldaten dieses Rangs gibt es nicht.","too-many-bot-games":"Du hast schon so viele Spiele gegen Bots laufen, wie dieser Server erlaubt: beende zuerst eines.","server-bot-games-full":"Dieser Server führt so viele Spiele gegen Bots, wie er kann: versuch es wieder, wenn eines zu Ende ist.","too-many-games":"Du hast schon so viele Spiele laufen, wie dieser Server erlaubt: beende zuerst eines.","too-many-players":"Von dieser Adresse wurden so viele Spieler angelegt, wie der Server gerade erlaubt: versuch es später noch einmal.","unknown-player":"Der Server kennt den Spieler dieses Browsers nicht: merke dir deine Spiele noch einmal.","too-many-streams":"Zu viele Leute sehen diesem Spiel zu: versuch es gleich noch einmal.","too-many-client-streams":"Von dieser Adresse sind zu viele Spiele offen: schließ ein paar Tabs.","invalid-stream-ticket":"Das Ticket dieser Live-Ansicht ist abgelaufen oder verbraucht: lade die Seite neu.","token-in-url":"Das Token eines Platzes gehört nie in eine Adresse: öffne das Spiel erneut über seinen Link.","database-busy":"Der Server ist beschäftigt: versuch es gleich noch einmal.","not-ready":"Der Server ist noch nicht bereit: versuch es gleich noch einmal.","store-unavailable":"Der Server erreicht seine Datenbank nicht: versuch es gleich noch einmal.","storage-full":"Die Platte des Servers ist voll: nichts wurde gespeichert. Versuch es später noch einmal.","internal-error":"Auf dem Server ist etwas schiefgegangen."}};var Z=F["deck-of-spies"].figures,Te=F["black-spy"].figures,ee=F["spies-and-lies"].figures,Ca={A:"ace",J:"jack",Q:"queen",K:"king"},Ma={C:"clubs",D:"diamonds",H:"hearts",S:"spades"},Ot=e=>e.charAt(0).toUpperCase()+e.slice(1),ie=(e,t)=>e[t]??t,Wt={langName:"English",switchTo:"Deutsch",switchLabel:"Sprache: Deutsch",appName:"Spies",loading:"Loading…",lobby:"Lobby",rules:"Rules",notFound:"Not found",backToLobby:"Back to the lobby",you:"you",seat:e=>`seat ${V(e)}`,spectator:"spectator",botNamed:e=>`bot ${e}`,and:"and",seatWithYou:e=>te(e,"you"),lobbyTitle:"Spies: lobby",lobbyIntro:"Deck of Spies, Black Spy and Stratego Spies & Lies on one event-sourced engine.",apiDocs:"API docs",rulesOf:e=>`Rules of ${e}`,myName:"Your display name ",newGame:"New game",gameLabel:"Game ",seatsLabel:" Seats ",seedLabel:"Seed ",seedPlaceholder:"optional: a reproducible game (no seat open)",fairLabel:"Fair deal: mix in randomness from this browser",fairHint:"The server commits to its secret seed first, then this browser adds its own: nobody alone chooses the cards, and the replay checks it at the end.",commitmentBroken:"The server did not keep its commitment: this game's seed is not the one it committed to before your randomness. Do not play it.",createHint:'You hold the token of every seat marked "me"; an open seat waits for its link.',create:"Create",options:"Options",whoPlays:"Who plays each seat",seatMe:"me",seatOpen:"open (share a link)",seatBot:e=>`bot: ${e}`,clockLegend:"Clock",clockNone:"no clock",clockTurn:e=>`${e} s a move`,clockBudget:e=>`${e} min each`,gameCreated:"Game created",shareHint:"Send each open seat's link to a player:",toTable:"Go to the table",watchTable:"Watch the table",typeNameFirst:"Type your display name first.",noOpenGame:"No game waits for a player.",openCaption:e=>e===1?"1 game with an open seat":`${e} games with an open seat`,openHeads:["Game","Id","Seated","Open seats",""],joinSeat:e=>`join seat ${V(e)}`,joinFirst:"Join the first open seat",noGame:"No game yet.",gamesCaption:e=>e===1?"1 game, newest first":`${e} games, newest first`,gamesHeads:["Game","Id","Seats","Status","Version",""],finished:"finished",toActList:e=>`to act: ${e}`,play:"Play",watch:"Watch",replay:"Replay",myGamesTitle:"My games",keepMyGames:"Keep my games",keepMyGamesHint:"Makes a player for this browser: the games you create or join from then on are listed here, with a way back to your seat even if this browser forgets it.",noMyGame:"None yet: create or join a game.",myGamesHeads:["Game","Id","Seat","Status",""],backToSeat:"Back to my seat",openSeatsTitle:"Open seats",gamesTitle:"Games",showGames:"Show games",inProgress:"in progress",allGames:"all games",joinTitle:e=>`Join seat ${V(e)}`,joinTitleOf:(e,t)=>`Join seat ${V(e)} of ${t}`,watchThisGame:"Watch this game",alreadyHeld:"You already hold this seat. ",goToTable:"Go to the table",takeSeat:e=>`Take seat ${V(e)}`,othersTitle:e=>`${e} seats; the others:`,joinName:"Your display name (shown to the other players)",typeName:"Type a display name first.",seatTaken:e=>`${e} is taken: someone joined it first.`,thisSeat:"This seat",seatCapital:e=>`Seat ${V(e)}`,noOpenSeat:"Every seat of this game is taken.",joinOver:"This game is over: its seats can no longer be joined.",noSuchSeat:e=>`This game has no ${e}.`,suchSeat:"such seat",noSuchGame:"There is no such game on this server.",badName:e=>`That name cannot be used: ${e}`,kindOpen:"open",kindCreator:"creator",kindJoined:"joined",kindBot:e=>`bot ${e}`,kindPlayedBy:(e,t)=>`${e}, played by bot ${t}`,game:"Game",playAs:"Play as ",log:"Log",logLabel:"What happened",seatLinks:"Private seat links (anyone with a link plays that seat)",seatLink:e=>`link of ${e}`,documentTitle:e=>`${e} · spies`,seats:"Seats",yours:", yours",shareLink:e=>`share link of ${e}`,botSelect:"Bot to play my seat",bot:"Bot ",handToBot:"Let the bot play my seat",takeBack:"Take my seat back",yourTurn:e=>`Your turn (${e}).`,botPlaysYourTurn:(e,t)=>`Bot ${e} plays your turn (${t}).`,waitingFor:e=>`Waiting for ${e}.`,waitingForPlayers:e=>e===1?"Waiting for players: 1 seat is open.":`Waiting for players: ${e} seats are open.`,dealWhenFull:"The cards are dealt when the last open seat is taken. Send each open seat's link to a player:",neverDealt:"Nothing was dealt: the table never filled.",openUntil:e=>`If the table is not full by ${e}, the game is abandoned.`,switchSeats:e=>` You hold ${e}: switch seats to play.`,gameOverTitle:"Game over",gameOverShort:"Game over.",scoresTitle:"Final scores",rematch:"Rematch",joinRematch:"Join the rematch",watchRematch:"Watch the rematch",replayGame:"Replay this game",refused:e=>`Refused: ${e}`,noRematch:(e,t)=>`No rematch for ${e}: ${t}`,tableMoved:"The table moved before your move arrived: choose again.",badSeatLink:e=>`This seat link is not valid: ${e}`,ruleLink:e=>`Rule §${e}`,theRules:"the rules",rulesOfThisGame:"Rules of this game",clocks:"Clocks",clockOf:e=>`clock of ${e}`,clockRunning:"running",clockLow:"under ten seconds",clockNoLimit:"no limit",youWin:"You win!",youLose:"You lose.",draw:"A draw.",winsOne:e=>`${Ot(e)} wins.`,winsShared:e=>`${Ot(e)} share the win.`,noWinner:"Nobody wins.",endedAborted:"Game aborted by the operator.",endedAbortedWhy:"The operator ended this game before its rules did: nobody wins.",endedAbandoned:"Game abandoned.",endedAbandonedWhy:"Its open seats were not taken in time: nobody wins.",deckWon:e=>`The ${Z.spies} spies are dealt with, and ${e} of the ${Z.key_spies} key spies (jacks, queens and kings) work for you: ${Z.win_faces} were needed.`,deckLostFaces:e=>`The ${Z.spies} spies are dealt with, but only ${e} of the ${Z.key_spies} key spies (jacks, queens and kings) work for you: ${Z.win_faces} were needed.`,deckLostAces:e=>`A spy had to be assassinated and no Ace was left to sacrifice: the game is lost at once, whatever the key spies (you owned ${e} of ${Z.key_spies}).`,bsEnded:e=>`A total reached ${e} points after a deal: the game ends, and the lowest total wins.`,bsTotals:e=>`Totals (lowest wins): ${e}.`,slFlag:(e,t)=>`${e} moved the Double Agent onto ${t}'s flag: a captured flag ends the game at once, whatever the infiltration score.`,slTerritory:(e,t)=>`After day ${ee.days} the Double Agent stands in ${t}'s territory: ${e} wins, however far it got.`,slInfiltration:`After day ${ee.days} the Double Agent stands on the centre: the higher infiltration marker wins.`,slInfiltrationDraw:`After day ${ee.days} the Double Agent stands on the centre and both infiltration markers are equal: a draw.`,slMarkers:e=>`Infiltration markers (they decide only on the centre): ${e}.`,deckScore:e=>`Key spies owned: ${e} of ${Z.key_spies} (${Z.win_faces} win).`,reasonRule:"The rule that decided it",scoreOf:(e,t)=>`${e}: ${t}`,sideOf:(e,t)=>`${e}: ${t}`,yourMoves:"Your moves",noMove:"No move for you now.",yourHand:"Your hand",handHidden:"Hand (spectator: hidden)",legend:"Legend",evCreated:(e,t,n)=>`Game created: ${e}, ${t===1?"1 seat":`${t} seats`}; seed commitment ${n}…`,evJoined:(e,t)=>`${e} is taken by ${t}.`,evHanded:(e,t)=>`${e} is handed to bot ${t}.`,evTakenBack:e=>`${e} is taken back from its bot.`,evClaimed:e=>`${e} is claimed for the rematch.`,evEntropy:e=>e===null?"The creator's randomness goes into the deal.":`${e} adds randomness to the deal.`,evSeed:e=>`The seed is revealed (${e}…): every shuffle can now be checked.`,evExpired:e=>`${e} ran out of time: the time control decides the move.`,evForfeit:e=>`${e} ran out of time and forfeits.`,evResumed:"The server was away: every running clock starts again where it stopped.",evClocks:"The clocks are set.",evAborted:e=>`The game is aborted by the operator: ${e}`,evAbandoned:e=>`The game is abandoned: ${e}`,evOther:e=>`${e}.`,deckTitle:"Deck of Spies",deckRank:e=>Ca[e]??e,deckSuit:e=>Ma[e]??e,deckCard:(e,t)=>`${e} of ${t}`,deckCounter:"counter",deckRecruit:"recruit",deckWith:(e,t,n,r)=>`${e} with ${t} (${n})${r===""?"":`, retire ${r}`}`,deckAssassinate:e=>`assassinate with ${e}`,deckStarted:(e,t)=>`The spy deck holds ${e} spies; your draw deck ${t} cards.`,deckDrewCount:e=>e===1?"1 card drawn.":`${e} cards drawn.`,deckDrew:e=>`Drew ${e}.`,deckRevealed:(e,t)=>`Turn ${e}: the spy ${t} is revealed.`,deckCountered:(e,t)=>`Countered the ${e} with ${t}.`,deckRecruited:(e,t,n)=>`Recruited the ${e} with ${t}${n===""?"":` (double agent ${n})`}.`,deckAssassinated:(e,t,n)=>`Assassinated the ${e} with the ${t} (from the ${n}).`,deckRetiredCount:e=>`Retired ${e} cards.`,deckRetired:e=>`Retired ${e}.`,deckReshuffled:e=>`The draw discard pile (${e} cards) is shuffled into the draw deck.`,deckShuffled:e=>`The draw deck (${e} cards) is shuffled.`,deckEndedWon:e=>`Game over: won, with ${e} of ${Z.key_spies} key spies.`,deckEndedLost:e=>`Game over: lost, with ${e} of ${Z.key_spies} key spies.`,deckZone:e=>ie({hand:"hand",draw_deck:"draw deck",draw_discard:"draw discard pile"},e),deckHintPick:"Pick a move, or select cards of your hand (also the ones to retire) to see the moves that use exactly them.",deckHintNone:e=>`No legal move uses exactly ${e}.`,deckSpyDeck:"Spy deck",deckNoSpy:"no spy revealed",deckSpiesLeft:e=>e===1?"1 spy left":`${e} spies left`,deckDrawDeck:"Draw deck",deckDrawDeckCards:e=>`draw deck, ${e} cards`,deckCards:e=>e===1?"1 card":`${e} cards`,deckKeySpies:"Key spies",deckOwnedOf:`of ${Z.key_spies} owned (${Z.win_faces} win)`,deckTurn:e=>`Turn ${e}`,deckHandTotal:e=>`Your hand, total ${e}`,deckDiscard:"Draw discard pile",deckEmpty:"empty",deckSpyDiscard:"Spy discard pile",deckRemoved:"Removed",deckNone:"none",deckStrict:"Strict necessity",deckAceCounts:"Ace counts in necessity",deckRetireMany:"Retire several ranks",bsTitle:"Black Spy",bsColour:e=>e,bsCardName:(e,t)=>`${e} ${t}`,bsNames:["","Informer","Interrogator","Infiltrator","Saboteur","Assassin","Agent","Spy","Double Agent","Code Breaker","Deputy Director","Director"],bsPass:e=>`pass ${e}`,bsPlay:e=>`play ${e}`,bsStarted:(e,t)=>`${e} players; ${t} deals first.`,bsDealt:(e,t,n,r)=>`Deal ${e}: ${t} deals ${n} cards each; pass ${r}.`,bsPassed:(e,t,n)=>`${e} passes ${Te.pass_size} cards to ${t}${n===""?"":`: ${n}`}.`,bsExchangedFirst:e=>`The passed cards change hands; ${e} leads the first trick.`,bsPlayed:(e,t)=>`${e} plays ${t}.`,bsTrickWon:(e,t,n)=>`${e} wins trick ${t} (${n===1?"1 point":`${n} points`}).`,bsDealScored:(e,t)=>`Deal ${e} scored: ${t}.`,bsGameEnded:(e,t)=>`Game over: ${e} ${t?"share the win":"wins"} with the lowest total.`,bsDirection:e=>ie({left:"left",right:"right",across:"across"},e),bsPhase:e=>ie({passing:"passing",playing:"playing",over:"over"},e),bsHintPlay:"Play one of the highlighted cards of your hand.",bsHintPass:(e,t)=>`Select ${Te.pass_size} cards of your hand to pass to ${e} (${t} selected).`,bsHintCannot:"These cards cannot be passed together.",bsDealer:"dealer",bsPassedTag:"passed",bsToAct:"to act",bsSeatStats:(e,t,n,r)=>`${e} cards · tricks ${t} cards, ${n} pts · total ${r}`,bsDealLine:(e,t,n,r,o)=>`Deal ${e} · pass ${t} · ${n} · trick ${r} · game ends at ${o} points (lowest total wins)`,bsTrick:"Trick",bsTrickTurn:(e,t)=>`Trick ${e}, ${t} to play`,bsNoCard:"no card yet",bsLastTrick:(e,t)=>`${te("Last trick",e)}: ${t} pts`,bsYouPassed:e=>`You passed ${e}.`,bsYouReceived:e=>`You received ${e}.`,bsScores:"Scores by deal",bsDeal:"Deal",bsTotal:"Total",bsNoGoodSpies:`No good spies (coloured ${Te.spy_rank}s score 0)`,bsClassic:"Classic 1981 rules",bsScoreLabel:"points (lowest total wins)",bsLegendColours:"Colours, each with its own symbol:",bsLegendSpy:`${Te.spy_rank} (hat): a spy. A black spy costs ${Te.black_spy_points} points, a coloured one takes ${-Te.good_spy_points} off.`,bsLegendBlack:"Black cards cost points: 1–6 one each, 8–11 two to five.",bsLegendStar:"★ (on the lowest red card): its holder leads the first trick.",bsLegendFollow:"Follow the led colour or the led rank; only the led colour wins the trick.",slTitle:"Stratego Spies & Lies",slSide:e=>["red","blue"][e]??`side ${e}`,slSideCap:e=>["Red","Blue"][e]??`Side ${e}`,slSoldiers:["","Spy","Scout","Miner","Sergeant","Lieutenant","Captain","Bomb","Colonel","General","Marshal"],slSoldier:(e,t)=>`${e} ${t}`,slDeployOn:(e,t)=>`${e} on mission ${t}`,slDeploy:e=>`deploy ${e}`,slMark:"put an intel token on the Sergeant",slNoMark:"leave the Sergeant unmarked",slConfirm:"confirm the intel tokens",slDeceive:"play a deception token",slDecline:"play no deception token",slGuess:e=>`guess ${e}`,slMarshalPoints:`Marshal: take ${ee.marshal_points} points`,slMarshalSabotage:`Marshal: sabotage (${ee.marshal_sabotage} points, the opponent loses ${ee.marshal_sabotage})`,slCaptainPoints:`Captain: take ${ee.captain_points} points`,slCaptainBorrow:e=>`Captain: borrow the exhausted ${e}`,slStarted:e=>`${e} players; the first intel card is public.`,slDeployed:(e,t,n,r)=>`${te(e,t)} deploys ${n} soldiers${r===""?"":`: ${r}`}.`,slIntelTurned:(e,t)=>`Day ${e}: the intel card shows ${t}.`,slIntelMarked:e=>`${e} has placed its intel tokens.`,slIntelRevealed:e=>`Intel tokens revealed${e===""?"":`; ${e} starts`}.`,slDeceived:(e,t)=>`${e} plays a deception token on mission ${t}.`,slDeclined:(e,t)=>`${e} plays no deception token on mission ${t}.`,slRevealed:(e,t,n,r,o,i,l)=>`${e} guesses ${t} at ${n}'s mission ${r}: it is the ${o}, ${i?"right":"wrong"}${l===""?"":`, forced back by the ${l}`}.`,slPoints:e=>e===1?"1 infiltration point":`${e} infiltration points`,slGained:(e,t,n,r,o)=>`${e} gains ${t} (${n}), marker at ${r}${o?": infiltration!":"."}`,slLost:(e,t,n)=>`${e} loses ${t}, marker at ${n}.`,slSteps:e=>e===1?"1 step":`${e} steps`,slMoved:(e,t,n,r)=>`${e} moves the Double Agent ${t} (${n}) to ${r}.`,slEffectName:e=>ie({scout:"Scout",spy:"Spy",miner:"Miner",bomb:"Bomb"},e),slForcedBy:e=>ie({bomb:"Bomb",spy:"Spy",miner:"Miner"},e),slPointSource:e=>ie({guess:"a right guess",soldier:"a soldier",deception:"a deception"},e),slMoveCause:e=>ie({infiltration:"infiltration",lieutenant:"Lieutenant",general:"General"},e),slEffect:(e,t)=>`${e}'s ${t} effect lasts until the end of the day.`,slMarshal:(e,t)=>`${e}'s Marshal: ${t}.`,slCaptainTook:e=>`${e}'s Captain takes ${ee.captain_points} points.`,slCaptainBorrowed:(e,t)=>`${e}'s Captain borrows the ${t}.`,slTokenGained:e=>`${e} gains a deception token.`,slDoubleDamage:e=>`${e} earns double damage.`,slFlagCaptured:e=>`${e} captures the flag!`,slDayEnded:(e,t)=>`Day ${e} ends; ${t} starts the next.`,slEndedDraw:"Game over: a draw.",slEnded:e=>`Game over: ${e} wins.`,slReason:e=>ie({"flag-captured":"flag captured",territory:"territory",infiltration:"infiltration"},e),slBoardLabel:(e,t)=>`Double Agent at ${e} (red flag at -${t}, blue flag at +${t})`,slDoubleAgent:"Double Agent",slInfiltrationOf:e=>`${e} infiltration`,slTowerText:e=>`infiltration ${e} of ${ee.infiltration_at}`,slMission:e=>`Mission ${e}`,slFaceDownSoldier:e=>`${e} soldier, face down`,slEmpty:"empty",slIntelToken:"intel token",slDeceptionToken:"deception token",slIntel:"intel",slDeception:"deception",slFaceDown:"face down",slYou:", you",slSideStats:(e,t)=>`${e} in hand · ${t===1?"1 deception token":`${t} deception tokens`}`,slDoubleDamageTag:" · double damage",slEffects:e=>` · effects: ${e}`,slExhausted:"Exhausted: ",slHintDeploy:(e,t)=>`Select ${t} soldiers of your hand to deploy (${e} selected); the missions take them in rising order, the Sergeant anywhere.`,slHintCannot:"These soldiers cannot be deployed.",slHintWhere:"Choose where they go:",slDayLine:(e,t)=>`Day ${e} of ${ee.days} · ${t}`,slGuessTurn:e=>` · guess-turn ${e} of ${ee.guess_turns}`,slGuesses:e=>` · ${e} guesses`,slPhase:e=>ie({setup:"setup",deploy:"deploy",intel:"intel",mission:"mission",over:"over"},e),slStage:e=>ie({deception:"deception",guess:"guess",marshal:"Marshal",captain:"Captain"},e),slBoard:"Board",slIntelLabel:"Intel: ",slNotTurned:"not turned yet",slOldIntel:(e,t,n)=>` · old: ${e} · ${t} left · reserve ${n}`,slBoardLength:"Board length (spaces to each gate)",slDeceptionPays:"Deception pays on a forced retreat",slReserve:"Reserve deception tokens",slScoreLabel:"infiltration marker",slLegendFlag:"Flag: the Double Agent on the opponent's flag wins the game at once.",slLegendAgent:"Black disc: the Double Agent. Below 0 is red's territory, above 0 blue's.",slLegendSideways:"A card turned sideways has retreated (identified by a right guess).",slLegendFaceUp:"A card upright and face up is activated (its ability was used).",slLegendIntel:"intel: an intel token on the mission (the soldier's rank is on the intel card).",slLegendDeception:"deception: a deception token on the mission.",slLegendTower:`Bar: the side's infiltration marker (at ${ee.infiltration_at}: the Double Agent moves one step).`,replayTitle:(e,t)=>`Replay: ${e} · ${t}`,replayDocTitle:e=>`Replay · ${e}`,replayStep:"Step",replayStepOf:(e,t)=>`Step ${e} of ${t}`,replayInProgress:"In progress: the replay shows what the chosen viewer may see.",headHash:"Head hash: ",verifying:"Verifying the log in this browser…",verifiedOk:e=>`Verified in this browser: the hash chain, the seed, every shuffle and every move.${e>0?` ${e} ${e===1?"move":"moves"} of bots other than random not re-run.`:""}`,verifyFailed:(e,t)=>`Verification failed${e===null?"":` at event ${e}`}: ${t}.`,receiptsHeld:e=>e===0?"":` The log holds the ${e===1?"receipt":`${e} receipts`} the server signed for this browser.`,verifyUnavailable:"Not verified: the export could not be fetched.",viewAs:"View as ",download:"Download the export (JSON Lines)",table:"Table",stepThrough:"Step through the game",firstStep:"first step",previousStep:"previous step",nextStep:"next step",lastStep:"last step",beforeFirst:"Before the first event.",hiddenEvent:"A hidden event.",rulesTitle:e=>`Rules: ${e}`,rulesGoTo:"Go to section",rulesGo:"Go",rulesSearch:"Search the rules",rulesNoSection:e=>`There is no section ${e}.`,rulesMatches:e=>e===1?"1 section matches.":`${e} sections match.`,rulesContents:"Contents",rulesOther:"The other games",rulesSummaryNote:"These are the rules in short, for players, with the reference's section numbers; the full reference, with every rule and the interpretations the engine chose, follows below.",rulesUnknown:"There are no rules for this game here.",deadUnknownGameTitle:"No such game",deadUnknownGame:e=>`This server has no game ${e}: the link may be mistyped, or the game was played on another server.`,deadServerDownTitle:"The server does not answer",deadServerDown:"The page cannot reach its server: it may be restarting. Try again in a moment.",deadTryAgain:"Try again",deadNewGame:"Start a new game in the lobby",seatNoticeTitle:"You are watching as a spectator",seatNoticeNone:"This browser holds no seat of this game.",seatNoticeRefused:e=>`The server refused the key this browser kept for ${e} (it is another server's, or the server's database was reset), so this browser forgot it.`,seatNoticeLink:"The server refused this seat link: it is mistyped or cut short, or it belongs to another game or server.",seatNoticeWatch:"Anyone can watch a game: you see what a spectator sees, every hand hidden.",seatNoticeForward:"To play your seat, open the private link of your seat again (the address ending in #token=…): whoever created the game can copy it from their page. Or:",gameOverNoMoves:"This game is over: no move can be made in it any more.",problems:{"not-your-turn":"It is not your turn.","game-over":"The game is over.","illegal-command":"The rules do not allow this move now.","unknown-card":"That card does not exist in this game.","card-not-in-hand":"That card is not in your hand.","duplicate-card":"A card is given twice, or both used and retired.","insufficient-value":"The cards add up to less than the spy's value.","unnecessary-card":"A card is not needed: without it the cards still beat the spy.","wrong-suit":"To recruit, every card must be of the spy's suit (or an Ace of that suit makes them so).","must-assassinate":"Your hand cannot beat the spy: you must assassinate it with an Ace.","not-an-ace":"Only an Ace can be sacrificed to assassinate a spy.","ace-not-available":"That Ace is not yours any more.","assassination-not-allowed":"You may assassinate only when your hand cannot beat the spy.","retire-single-card":"A retire needs two or more cards of one value.","retire-mixed-ranks":"A retire is cards of one value only.","wrong-pass-count":`Pass exactly ${Te.pass_size} cards.`,"already-passed":"You have passed already this deal.","passing-not-over":"Cards are played once every seat has passed.","must-follow":"You hold a card of the led colour or rank: play one of them.","black-lead-first-trick":"The first trick may not be led with a black card.","not-deploy-phase":"Soldiers are deployed only in the deploy phase.","wrong-soldier-count":"Deploy the right number of soldiers.","duplicate-soldier":"The same soldier is deployed twice.","soldier-exhausted":"That soldier is exhausted today.","soldier-not-in-hand":"That soldier is not in your hand.","deployment-out-of-order":"The missions must read in rising order (the Sergeant may go anywhere).","deployment-not-completable":"The soldiers left could not complete the deployment.","not-intel-phase":"Intel tokens are placed only in the intel phase.","no-sergeant-deployed":"No Sergeant to mark: confirm the intel.","sergeant-choice-required":"Your Sergeant is deployed: choose its intel token first.","not-guess-step":"This is not the moment to guess.","no-deception-token":"You hold no deception token for that mission.","outside-deception-window":"Deception tokens are played only during the opponent's guess.","choice-not-offered":"That choice is not offered now.","borrow-not-exhausted":"The Captain borrows only one of your own exhausted soldiers.","deadline-passed":"Your time ran out before your move arrived: the time control decided.","version-conflict":"Another move was recorded first.","malformed-body":"The request could not be read (a malformed or incomplete body).","invalid-parameter":"A parameter of the request cannot be used.",unauthorized:"This page holds no valid key for that seat: open your seat's private link again.",forbidden:"That key belongs to another game.","not-your-seat":"That key is another seat's.","bad-request":"The server could not read the request.","not-found":"There is no such page on this server.","method-not-allowed":"The server does not take that request here.","not-acceptable":"The server cannot answer in the form asked for.","body-too-large":"The request is too large.","uri-too-long":"The address is too long.","unsupported-media-type":"The server cannot read that kind of request.","too-many-requests":"Too many requests from this address: wait a moment and try again.","headers-too-large":"The request's headers are too large.","game-not-found":"There is no such game on this server.","seq-out-of-range":"The game has no such step.","replay-seat-hidden":"That seat's cards stay hidden until the game ends.","game-not-finished":"The game is not over yet.","seat-not-found":"The game has no such seat.","seat-taken":"That seat is taken: someone was quicker.","no-open-seat":"Every seat of this game is taken.","seat-not-handed":"No bot plays that seat.","handed-seat-not-moved":"The bot has not moved for that seat yet: try again after its move.","invalid-seats":"The seats do not match the number of players.","invalid-clock":"The game cannot run with that clock.","fixed-deal-with-open-seat":"A game with an open seat cannot have a seed: whoever creates it would know the joiner's cards. Leave the seed empty or fill every seat.","invalid-name":`That name cannot be used: 1 to ${40} printable characters.`,"unknown-bot":"There is no such bot for this game.","idempotency-key-reused":"That request was already sent with other contents.","unknown-game":"This server has no such game.","unknown-option":"The game has no such option.","invalid-options":"An option has a value the game cannot take.","invalid-players":"The game is not played by that many players.","invalid-deal":"That deal is not a valid deal for the game.","invalid-seed":"That seed cannot be used.","unknown-commitment":"That seed commitment is unknown to this server: ask for a new one.","commitment-used":"That seed commitment was used already: ask for a new one.","commitment-expired":"That seed commitment has expired: ask for a new one.","invalid-entropy":"Your entropy is not hex of the allowed length, or it came without its seed commitment.","entropy-not-accepted":"This game takes no entropy of yours: only games created with a seed commitment do.","too-many-commitments":"You hold as many unused seed commitments as this server allows: use one or wait.","unsupported-variant":"The engine does not support that variant.","wrong-game-command":"That move belongs to another game.","not-started":"The game has not started: it waits for players.","invalid-rank":"There is no soldier of that rank.","too-many-bot-games":"You already have as many games against bots going as this server allows: finish one first.","server-bot-games-full":"This server is running as many games against bots as it can: try again when one has ended.","too-many-games":"You already have as many games going as this server allows: finish one first.","too-many-players":"This address has made as many players as the server allows for now: try again later.","unknown-player":"The server does not know this browser's player: keep your games again.","too-many-streams":"Too many people are watching this game: try again in a moment.","too-many-client-streams":"This address has too many games open: close some tabs.","invalid-stream-ticket":"This live view's ticket ran out or was used: reload the page.","token-in-url":"A seat's token never goes in an address: open the game from its link again.","database-busy":"The server is busy: try again in a moment.","not-ready":"The server is not ready: try again in a moment.","store-unavailable":"The server cannot reach its database: try again in a moment.","storage-full":"The server's disk is full: nothing was saved. Try again later.","internal-error":"Something went wrong on the server."}};var Ft="spies:lang";function La(){try{let e=localStorage.getItem(Ft);return e==="en"||e==="de"?e:null}catch{return null}}function Ia(){let e=La();if(e!==null)return e;for(let t of navigator.languages??[navigator.language]){let n=t.toLowerCase().split("-")[0];if(n==="de")return"de";if(n==="en")return"en"}return"en"}var Ce=Ia(),a=Ce==="de"?Nt:Wt;document.documentElement.lang=Ce;function J(){let e=Ce==="de"?"en":"de";return s("button",{type:"button",class:"lang-switch","data-testid":"lang-switch",lang:e,"aria-label":a.switchLabel,onclick:()=>{localStorage.setItem(Ft,e),location.reload()}},a.switchTo)}function U(e){return e.length<=1?e.join(""):`${e.slice(0,-1).join(", ")} ${a.and} ${e[e.length-1]??""}`}var Pa=/\{[^{}]+\}/g,Ha=()=>typeof process=="object"&&Number.parseInt(process?.versions?.node?.substring(0,2))>=18&&process.versions.undici;function Ga(){return Math.random().toString(36).slice(2,11)}function Ut(e){let{baseUrl:t="",Request:n=globalThis.Request,fetch:r=globalThis.fetch,querySerializer:o,bodySerializer:i,pathSerializer:l,headers:d,requestInitExt:c=void 0,...u}={...e};c=Ha()?c:void 0,t=Vt(t);let m=[];async function f(h,p){let{baseUrl:T,fetch:w=r,Request:b=n,headers:S,params:y={},parseAs:C="json",querySerializer:G,bodySerializer:R=i??za,pathSerializer:M,body:D,middleware:v=[],...K}=p||{},j=t;T&&(j=Vt(T)??t);let ue=typeof o=="function"?o:Kt(o);G&&(ue=typeof G=="function"?G:Kt({...typeof o=="object"?o:{},...G}));let I=M||l||Ba,ze=D===void 0?void 0:R(D,jt(d,S,y.header)),pt=jt(ze===void 0||ze instanceof FormData?{}:{"Content-Type":"application/json"},d,S,y.header),re=[...m,...v],x={redirect:"follow",...u,...K,body:ze,headers:pt},A,N,O=new b(Na(h,{baseUrl:j,params:y,querySerializer:ue,pathSerializer:I}),x),E;for(let W in K)W in O||(O[W]=K[W]);if(re.length){A=Ga(),N=Object.freeze({baseUrl:j,fetch:w,parseAs:C,querySerializer:ue,bodySerializer:R,pathSerializer:I});for(let W of re)if(W&&typeof W=="object"&&typeof W.onRequest=="function"){let B=await W.onRequest({request:O,schemaPath:h,params:y,options:N,id:A});if(B)if(B instanceof b)O=B;else if(B instanceof Response){E=B;break}else throw new Error("onRequest: must return new Request() or Response() when modifying the request")}}if(!E){try{E=await w(O,c)}catch(W){let B=W;if(re.length)for(let ke=re.length-1;ke>=0;ke--){let Ue=re[ke];if(Ue&&typeof Ue=="object"&&typeof Ue.onError=="function"){let Ne=await Ue.onError({request:O,error:B,schemaPath:h,params:y,options:N,id:A});if(Ne){if(Ne instanceof Response){B=void 0,E=Ne;break}if(Ne instanceof Error){B=Ne;continue}throw new Error("onError: must return new Response() or instance of Error")}}}if(B)throw B}if(re.length)for(let W=re.length-1;W>=0;W--){let B=re[W];if(B&&typeof B=="object"&&typeof B.onResponse=="function"){let ke=await B.onResponse({request:O,response:E,schemaPath:h,params:y,options:N,id:A});if(ke){if(!(ke instanceof Response))throw new Error("onResponse: must return new Response() when modifying the response");E=ke}}}}let fe=E.headers.get("Content-Length");if(E.status===204||O.method==="HEAD"||fe==="0"&&!E.headers.get("Transfer-Encoding")?.includes("chunked"))return E.ok?{data:void 0,response:E}:{error:void 0,response:E};if(E.ok)return{data:await(async()=>{if(C==="stream")return E.body;if(C==="json"&&!fe){let B=await E.text();return B?JSON.parse(B):void 0}return await E[C]()})(),response:E};let _e=await E.text();try{_e=JSON.parse(_e)}catch{}return{error:_e,response:E}}return{request(h,p,T){return f(p,{...T,method:h.toUpperCase()})},GET(h,p){return f(h,{...p,method:"GET"})},PUT(h,p){return f(h,{...p,method:"PUT"})},POST(h,p){return f(h,{...p,method:"POST"})},DELETE(h,p){return f(h,{...p,method:"DELETE"})},OPTIONS(h,p){return f(h,{...p,method:"OPTIONS"})},HEAD(h,p){return f(h,{...p,method:"HEAD"})},PATCH(h,p){return f(h,{...p,method:"PATCH"})},TRACE(h,p){return f(h,{...p,method:"TRACE"})},use(...h){for(let p of h)if(p){if(typeof p!="object"||!("onRequest"in p||"onResponse"in p||"onError"in p))throw new Error("Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`");m.push(p)}},eject(...h){for(let p of h){let T=m.indexOf(p);T!==-1&&m.splice(T,1)}}}}function qe(e,t,n){if(t==null)return"";if(typeof t=="object")throw new Error("Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these.");return`${e}=${n?.allowReserved===!0?t:encodeURIComponent(t)}`}function qt(e,t,n){if(!t||typeof t!="object")return"";let r=[],o={simple:",",label:".",matrix:";"}[n.style]||"&";if(n.style!=="deepObject"&&n.explode===!1){for(let d in t)r.push(d,n.allowReserved===!0?t[d]:encodeURIComponent(t[d]));let l=r.join(",");switch(n.style){case"form":return`${e}=${l}`;case"label":return`.${l}`;case"matrix":return`;${e}=${l}`;default:return l}}for(let l in t){let d=n.style==="deepObject"?`${e}[${l}]`:l;r.push(qe(d,t[l],n))}let i=r.join(o);return n.style==="label"||n.style==="matrix"?`${o}${i}`:i}function Zt(e,t,n){if(!Array.isArray(t))return"";if(n.explode===!1){let i={form:",",spaceDelimited:"%20",pipeDelimited:"|"}[n.style]||",",l=(n.allowReserved===!0?t:t.map(d=>encodeURIComponent(d))).join(i);switch(n.style){case"simple":return l;case"label":return`.${l}`;case"matrix":return`;${e}=${l}`;default:return`${e}=${l}`}}let r={simple:",",label:".",matrix:";"}[n.style]||"&",o=[];for(let i of t)n.style==="simple"||n.style==="label"?o.push(n.allowReserved===!0?i:encodeURIComponent(i)):o.push(qe(e,i,n));return n.style==="label"||n.style==="matrix"?`${r}${o.join(r)}`:o.join(r)}function Kt(e){return function(n){let r=[];if(n&&typeof n=="object")for(let o in n){let i=n[o];if(i!=null){if(Array.isArray(i)){if(i.length===0)continue;r.push(Zt(o,i,{style:"form",explode:!0,...e?.array,allowReserved:e?.allowReserved||!1}));continue}if(typeof i=="object"){r.push(qt(o,i,{style:"deepObject",explode:!0,...e?.object,allowReserved:e?.allowReserved||!1}));continue}r.push(qe(o,i,e))}}return r.join("&")}}function Ba(e,t){let n=e;for(let r of e.match(Pa)??[]){let o=r.substring(1,r.length-1),i=!1,l="simple";if(o.endsWith("*")&&(i=!0,o=o.substring(0,o.length-1)),o.startsWith(".")?(l="label",o=o.substring(1)):o.startsWith(";")&&(l="matrix",o=o.substring(1)),!t||t[o]===void 0||t[o]===null)continue;let d=t[o];if(Array.isArray(d)){n=n.replace(r,Zt(o,d,{style:l,explode:i}));continue}if(typeof d=="object"){n=n.replace(r,qt(o,d,{style:l,explode:i}));continue}if(l==="matrix"){n=n.replace(r,`;${qe(o,d)}`);continue}n=n.replace(r,l==="label"?`.${encodeURIComponent(d)}`:encodeURIComponent(d))}return n}function za(e,t){return e instanceof FormData?e:t&&(t.get instanceof Function?t.get("Content-Type")??t.get("content-type"):t["Content-Type"]??t["content-type"])==="application/x-www-form-urlencoded"?new URLSearchParams(e).toString():JSON.stringify(e)}function Na(e,t){let n=`${t.baseUrl}${e}`;t.params?.path&&(n=t.pathSerializer(n,t.params.path));let r=t.querySerializer(t.params.query??{});return r.startsWith("?")&&(r=r.substring(1)),r&&(n+=`?${r}`),n}function jt(...e){let t=new Headers;for(let n of e){if(!n||typeof n!="object")continue;let r=n instanceof Headers?n.entries():Object.entries(n);for(let[o,i]of r)if(i===null)t.delete(o);else if(Array.isArray(i))for(let l of i)t.append(o,l);else i!==void 0&&t.set(o,i)}return t}function Vt(e){return e.endsWith("/")?e.substring(0,e.length-1):e}var $=Ut({baseUrl:location.origin});function Y(e){return e===void 0?{}:{Authorization:`Bearer ${e}`}}function oe(e){if(typeof e=="object"&&e!==null&&"code"in e){let t=e.code;return typeof t=="string"?t:void 0}}function L(e){if(typeof e=="object"&&e!==null&&"detail"in e){let t=e;return`${(t.code===void 0?void 0:a.problems[t.code])??t.detail??"error"}${t.code===void 0?"":` (${t.code})`}`}return String(e)}var Oa=32;function Jt(){let e=crypto.getRandomValues(new Uint8Array(Oa));return Array.from(e,t=>t.toString(16).padStart(2,"0")).join("")}async function Yt(){let{data:e,error:t}=await $.POST("/commitments",{});if(e===void 0)return{error:t};let n=e;return{deal:{commitment_id:n.commitment_id,entropy:Jt(),seedCommitment:n.seed_commitment}}}function Qt(e,t){return e.seedCommitment===t}function Ze(e){return e.seed_source==="mixed"?{entropy:Jt()}:{}}var Wa=F["deck-of-spies"].figures,Xt=F["black-spy"].figures,en={C:{name:"clubs",colour:"#1b1b1b",path:"M50 8a19 19 0 0 1 17 27a19 19 0 1 1-6 34l7 23H32l7-23a19 19 0 1 1-6-34A19 19 0 0 1 50 8z"},D:{name:"diamonds",colour:"#c8102e",path:"M50 4L90 50L50 96L10 50z"},H:{name:"hearts",colour:"#c8102e",path:"M50 90C22 66 6 50 6 31C6 17 16 7 29 7c9 0 17 5 21 13c4-8 12-13 21-13c13 0 23 10 23 24c0 19-16 35-44 59z"},S:{name:"spades",colour:"#1b1b1b",path:"M50 6C75 32 94 45 94 63c0 13-10 21-22 21c-8 0-14-4-17-9l5 19H40l5-19c-3 5-9 9-17 9C16 84 6 76 6 63C6 45 25 32 50 6z"}};function gt(e){return{rank:e.slice(0,-1),suit:e.slice(-1)}}function ae(e){let{rank:t,suit:n}=gt(e);return a.deckCard(a.deckRank(t),a.deckSuit(n))}function tn(e){return Wa.card_values[gt(e).rank]??0}function Je(e,t){return g("svg",{viewBox:"0 0 100 140",class:`card ${t}`,role:"img","aria-label":e})}function ft(e,t,n,r){let o=en[e],i=r/100;return g("path",{d:o?.path??"",fill:o?.colour??"#000",transform:`translate(${t-r/2} ${n-r/2}) scale(${i})`})}function Me(e){let{rank:t,suit:n}=gt(e),r=en[n]?.colour??"#000",o=t==="J"||t==="Q"||t==="K",i=Je(ae(e),o?"face-card":"");return i.append(g("rect",{x:2,y:2,width:96,height:136,rx:9,class:"card-paper"}),g("text",{x:10,y:28,fill:r,class:"card-rank"},t),ft(n,17,42,16)),o?i.append(g("rect",{x:24,y:30,width:52,height:80,rx:6,fill:r,opacity:.12}),g("text",{x:50,y:84,fill:r,class:"card-big","text-anchor":"middle"},t),ft(n,50,100,14)):i.append(ft(n,56,82,t==="A"?52:40)),i.append(g("text",{x:90,y:130,fill:r,class:"card-rank","text-anchor":"end"},t)),i}function De(e,t="blue"){let n=Je(e,`card-back back-${t}`);return n.append(g("rect",{x:2,y:2,width:96,height:136,rx:9,class:"back-paper"}),g("rect",{x:10,y:10,width:80,height:120,rx:5,class:"back-inner"}),g("circle",{cx:50,cy:70,r:18,class:"back-emblem"})),n}var Fa={blue:"#1f5fbf",yellow:"#d9a400",red:"#c8102e",green:"#23804a",black:"#1b1b1b"};function nn(e){return Fa[e]??"#444"}function an(e,t,n,r){let o={fill:"#fff",stroke:"#111","stroke-width":1.5,class:`symbol symbol-${e}`};switch(e){case"blue":return g("circle",{...o,cx:t,cy:n,r});case"yellow":return g("path",{...o,d:`M${t} ${n-r}L${t+r} ${n+r}H${t-r}z`});case"red":return g("rect",{...o,x:t-r*.85,y:n-r*.85,width:r*1.7,height:r*1.7});case"green":return g("path",{...o,d:`M${t} ${n-r}L${t+r} ${n}L${t} ${n+r}L${t-r} ${n}z`});default:return g("path",{...o,d:`M${t-r} ${n-r*.5}L${t-r*.5} ${n-r}L${t} ${n-r*.5}L${t+r*.5} ${n-r}L${t+r} ${n-r*.5}L${t+r*.5} ${n}L${t+r} ${n+r*.5}L${t+r*.5} ${n+r}L${t} ${n+r*.5}L${t-r*.5} ${n+r}L${t-r} ${n+r*.5}L${t-r*.5} ${n}z`})}}function sn(e){let t=g("svg",{viewBox:"0 0 24 24",class:"symbol-icon","aria-hidden":"true"});return t.append(g("rect",{x:0,y:0,width:24,height:24,rx:4,fill:nn(e)}),an(e,12,12,7)),t}function he(e){let[t,n]=e.split("-");return a.bsCardName(a.bsColour(t??e),Number(n??""))}function rn(e){return Number(e.split("-")[1])}function Ae(e){let[t="black",n="?"]=e.split("-"),r=nn(t),o=Number(n),i=Je(he(e),`bs-card bs-${t}`);return i.append(g("rect",{x:2,y:2,width:96,height:136,rx:9,class:"card-paper"}),g("rect",{x:8,y:8,width:84,height:124,rx:6,fill:r}),g("text",{x:15,y:30,class:"bs-corner"},n),g("circle",{cx:50,cy:70,r:27,fill:"#fff",opacity:.92}),g("text",{x:50,y:81,class:"bs-rank",fill:r,"text-anchor":"middle"},n),g("text",{x:50,y:121,class:"bs-name","text-anchor":"middle"},a.bsNames[o]??""),an(t,84,24,9)),o===Xt.spy_rank&&i.append(g("path",{d:"M30 47h40l-7-11H37z",fill:t==="black"?"#ddd":"#111"})),e===Xt.star_card&&i.append(g("path",{d:"M80 14l3 7 7 .6-5.4 4.6 1.7 7-6.3-3.8-6.3 3.8 1.7-7-5.4-4.6 7-.6z",fill:"#fff"})),i}function le(e){return a.slSoldier(e,a.slSoldiers[e]??"")}var Ka={red:"#b3261e",blue:"#1f4fa8"};function $e(e,t,n=""){let r=Ka[t]??"#555",o=a.slSide(t==="blue"?1:0),i=Je(`${o} ${le(e)}`,`soldier ${n}`);return i.append(g("rect",{x:2,y:2,width:96,height:136,rx:9,class:"card-paper"}),g("rect",{x:8,y:8,width:84,height:30,rx:5,fill:r}),g("text",{x:50,y:31,class:"soldier-rank","text-anchor":"middle"},e),g("path",{d:"M30 112c0-18 9-28 20-28s20 10 20 28zM36 76c0-14 6-22 14-22s14 8 14 22z",fill:r,opacity:.85}),g("text",{x:50,y:130,class:"soldier-name","text-anchor":"middle"},a.slSoldiers[e]??"")),i}var on="spies:name";function Ye(){return localStorage.getItem(on)??""}function Oe(e){localStorage.setItem(on,e)}function _(e){return e==null?a.spectator:a.seat(e)}function ye(e,t,n){let r=i=>{let l=e?.seats.find(d=>d.seat===i);return n?.get(i)??l?.name??(l?.type==="bot"&&l.bot!==null&&l.bot!==void 0?a.botNamed(l.bot):null)},o=e?.seats.map(i=>i.seat)??[...n?.keys()??[]];return i=>{if(i==null)return a.spectator;let l=r(i),d=l!==null&&o.some(u=>u!==i&&r(u)===l),c=l===null?a.seat(i):d?te(l,a.seat(i)):l;return i===t?a.seatWithYou(c):c}}function ge(e){let t=e.type??"creator";if(t==="bot")return a.kindBot(e.bot??"").trim();if(t==="open")return a.kindOpen;let n=t==="joined"?a.kindJoined:a.kindCreator;return e.bot===null||e.bot===void 0?n:a.kindPlayedBy(n,e.bot)}function Le(e){return e.seats.filter(t=>t.type==="open").map(t=>t.seat)}function Ie(e,t){return`${location.origin}/join/${e}/${t}`}function ln(e){return e.name===null||e.name===void 0?ge(e):te(e.name,ge(e))}function be(e,t,n,...r){let o=JSON.stringify(t),i=r[0];return i instanceof SVGElement&&i.setAttribute("aria-label",n),s("button",{type:"button",class:"command","data-testid":"command","data-command":o,"data-key":`command:${o}`,"aria-label":r.length>0?null:n,disabled:!e.live,onclick:()=>e.send(t)},...r.length>0?r:[n])}function Pe(e,t,n,r,o){let i=e.selection.includes(t);return r.setAttribute("aria-label",o),s("button",{type:"button",class:`hand-card${i?" selected":""}`,"data-card":n,"data-index":t,"data-key":`card:${t}`,"aria-pressed":i?"true":"false",disabled:!e.live,onclick:()=>e.toggle(t)},r)}function He(e,t){return t.flatMap(n=>n<e.length?[e[n]]:[])}function xe(e,t){if(e.length!==t.length)return!1;let n=i=>i.map(String).sort(),r=n(e),o=n(t);return r.every((i,l)=>i===o[l])}function z(e,t,...n){return s("section",{class:`zone ${t}`,"aria-label":e},s("h3",{},e),...n)}function pe(e,...t){return s("section",{class:"moves","aria-label":a.yourMoves,"data-testid":"moves"},s("h3",{},a.yourMoves),e!==null?s("p",{class:"hint","aria-live":"polite"},e):t.length===0?s("p",{class:"hint"},a.noMove):null,s("div",{class:"move-list"},...t))}function Qe(...e){return s("details",{class:"legend","data-testid":"legend",open:!0},s("summary",{},a.legend),s("ul",{},...e.map(([t,n])=>s("li",{},t===null?null:s("span",{class:"legend-symbol"},t)," ",n))))}var cn=F["black-spy"].figures,un=cn.colours;function yt(e){switch(e.type){case"pass_cards":return a.bsPass(e.cards.map(he).join(", "));case"play_card":return a.bsPlay(he(e.card));default:return e.type}}function ja(e){return U(e.map(he))}function Va(e,t){switch(e.type){case"black_spy_started":return a.bsStarted(e.players,t(e.dealer));case"black_spy_dealt":return a.bsDealt(e.deal,t(e.dealer),e.hand_size,a.bsDirection(e.direction));case"black_spy_cards_passed":return a.bsPassed(t(e.seat),t(e.to_seat),e.cards===null?"":ja(e.cards));case"black_spy_cards_exchanged":return a.bsExchangedFirst(t(e.leader));case"black_spy_card_played":return a.bsPlayed(t(e.seat),he(e.card));case"black_spy_trick_won":return a.bsTrickWon(t(e.winner),e.trick,e.points);case"black_spy_deal_scored":return a.bsDealScored(e.deal,e.scores.map((n,r)=>a.scoreOf(t(r),n)).join(", "));case"black_spy_game_ended":return a.bsGameEnded(U(e.winners.map(t)),e.winners.length>1);default:return null}}function Ua(e){let t=n=>un.indexOf(n.split("-")[0]??"")*100+rn(n);return e.map((n,r)=>r).sort((n,r)=>t(e[n]??"")-t(e[r]??"")||n-r)}function qa(e,t){let n=new Map;for(let o of e.legal)o.type==="play_card"&&n.set(o.card,o);let r=e.legal.some(o=>o.type==="pass_cards");return Ua(t).map(o=>{let i=t[o]??"",l=n.get(i);return l!==void 0?be(e,l,yt(l),Ae(i)):r?Pe(e,o,i,Ae(i),he(i)):s("span",{class:"hand-card idle"},Ae(i))})}function Za(e,t){let n=e.view;if(e.legal.some(c=>c.type==="play_card"))return pe(a.bsHintPlay);let r=e.legal.filter(c=>c.type==="pass_cards");if(r.length===0)return pe(null);let o=He(t,e.selection),i=r.filter(c=>xe(c.cards,o)),l=e.name(n.pass_to),d=o.length<cn.pass_size?a.bsHintPass(l,o.length):i.length===0?a.bsHintCannot:null;return pe(d,...i.map(c=>be(e,c,yt(c))))}function Ja(e,t){let n=e.view,r=n.to_act.includes(t),o=[t===n.dealer?a.bsDealer:null,n.phase==="passing"&&n.passed[t]===!0?a.bsPassedTag:null,r?a.bsToAct:null].filter(i=>i!==null);return s("li",{class:`seat${r?" acting":""}${t===n.seat?" mine":""}`},s("strong",{},e.name(t)),o.length>0?s("span",{class:"tags"},` · ${o.join(", ")}`):null,s("span",{class:"backs","aria-hidden":"true"},...Array.from({length:Math.min(n.hand_sizes[t]??0,12)},()=>De("","dark"))),s("span",{class:"seat-stats"},a.bsSeatStats(n.hand_sizes[t]??0,n.pile_sizes[t]??0,n.pile_points[t]??0,n.totals[t]??0)))}function dn(e,t){return s("div",{class:"trick"},...t.map(n=>s("figure",{},Ae(n.card),s("figcaption",{},e(n.seat)))))}function Ya(e){let t=e.view,n=t.hand??[],r=t.tricks[t.tricks.length-1];return s("div",{class:"table black-spy-table"},s("p",{class:"deal-line"},a.bsDealLine(t.deal,a.bsDirection(t.pass_direction),a.bsPhase(t.phase),t.trick_number,t.threshold)),z(a.seats,"seats",s("ul",{class:"seat-list"},...t.hand_sizes.map((o,i)=>Ja(e,i)))),s("div",{class:"row"},z(t.turn===null?a.bsTrick:a.bsTrickTurn(t.trick_number,e.name(t.turn)),"current-trick felt",t.trick.length===0?s("p",{class:"empty"},a.bsNoCard):dn(e.name,t.trick)),r===void 0?null:z(a.bsLastTrick(e.name(r.winner),r.points),"last-trick felt",dn(e.name,r.cards))),z(t.seat===null?a.handHidden:a.yourHand,"hand-zone",s("div",{class:"hand","data-testid":"hand",role:"group","aria-label":a.yourHand},...qa(e,n)),t.my_pass===null?null:s("p",{},a.bsYouPassed(U(t.my_pass.map(he)))),t.received===null?null:s("p",{},a.bsYouReceived(U(t.received.map(he))))),Za(e,n),t.deal_scores.length===0?null:z(a.bsScores,"score-table",s("table",{},s("thead",{},s("tr",{},s("th",{scope:"col"},a.bsDeal),...t.totals.map((o,i)=>s("th",{scope:"col"},e.name(i))))),s("tbody",{},...t.deal_scores.map((o,i)=>s("tr",{},s("td",{},i+1),...o.map(l=>s("td",{},l)))),s("tr",{class:"totals"},s("td",{},a.bsTotal),...t.totals.map(o=>s("td",{},o)))))))}function Qa(){return Qe([null,s("span",{},a.bsLegendColours," ",s("span",{class:"legend-colours"},...un.map(e=>s("span",{class:"legend-colour"},sn(e),` ${a.bsColour(e)}`))))],[null,a.bsLegendSpy],[null,a.bsLegendBlack],[null,a.bsLegendStar],[null,a.bsLegendFollow])}function Xa(e,t,n){let r=t.scores.length>0?t.scores:e.totals;return{why:a.bsEnded(e.threshold),figures:a.bsTotals(r.map((o,i)=>a.scoreOf(n(i),o)).join(", "))}}var hn={id:"black-spy",title:a.bsTitle,options:[{kind:"flag",key:"no_good_spies",label:a.bsNoGoodSpies},{kind:"flag",key:"classic",label:a.bsClassic}],table:Ya,handKey:e=>JSON.stringify(e.hand),describe:yt,narrate:Va,scoreLabel:a.bsScoreLabel,explain:Xa,legend:Qa};function Ee(e){return U(e.map(ae))}function mn(e){switch(e.type){case"counter":case"recruit":{let t=e.retire??[],n=e.type==="counter"?a.deckCounter:a.deckRecruit,r=e.cards.reduce((o,i)=>o+tn(i),0);return a.deckWith(n,Ee(e.cards),r,t.length>0?Ee(t):"")}case"assassinate":return a.deckAssassinate(ae(e.ace));default:return e.type}}function es(e){switch(e.type){case"deck_of_spies_started":return a.deckStarted(e.spy_deck_count,e.draw_deck_count);case"cards_drawn":return e.cards===null?a.deckDrewCount(e.count):a.deckDrew(Ee(e.cards));case"spy_revealed":return a.deckRevealed(e.turn,ae(e.spy));case"spy_countered":return a.deckCountered(ae(e.spy),Ee(e.cards));case"spy_recruited":{let t=e.double_agent;return a.deckRecruited(ae(e.spy),Ee(e.cards),t==null?"":ae(t))}case"spy_assassinated":return a.deckAssassinated(ae(e.spy),ae(e.ace),a.deckZone(e.ace_zone));case"cards_retired":return e.cards===null?a.deckRetiredCount(e.count):a.deckRetired(Ee(e.cards));case"discard_reshuffled":return a.deckReshuffled(e.count);case"draw_deck_shuffled":return a.deckShuffled(e.count);case"deck_of_spies_ended":return e.result==="won"?a.deckEndedWon(e.owned_faces):a.deckEndedLost(e.owned_faces);default:return null}}function pn(e,t){return e.length===0?s("p",{class:"empty"},t):s("div",{class:"fan"},...e.map(Me))}function ts(e,t){let n=He(t,e.selection),r=e.legal.filter(i=>{if(i.type==="assassinate")return n.length===0||xe(n,[i.ace]);if(i.type!=="counter"&&i.type!=="recruit")return!1;let l=i.retire??[];return n.length===0?l.length===0:xe(n,[...i.cards,...l])}),o=null;return e.legal.length>0&&(o=n.length===0?a.deckHintPick:r.length===0?a.deckHintNone(Ee(n)):null),pe(o,...r.map(i=>be(e,i,mn(i))))}function ns(e){let t=e.view,n=t.hand??[],r=t.top_spy;return s("div",{class:"table deck-table"},s("div",{class:"row"},z(a.deckSpyDeck,"spy-deck",r===null?De(a.deckNoSpy,"red"):Me(r),s("p",{},a.deckSpiesLeft(t.spies_left))),z(a.deckDrawDeck,"draw-deck",De(a.deckDrawDeckCards(t.draw_deck_count)),s("p",{},a.deckCards(t.draw_deck_count))),z(a.deckKeySpies,"score",s("p",{class:"big-number"},t.owned_faces??"?"),s("p",{},a.deckOwnedOf),s("p",{},a.deckTurn(t.turn)))),z(t.hand_total===null?a.yourHand:a.deckHandTotal(t.hand_total),"hand-zone",s("div",{class:"hand","data-testid":"hand",role:"group","aria-label":a.yourHand},...n.map((o,i)=>Pe(e,i,o,Me(o),ae(o))),n.length===0?s("p",{class:"empty"},a.deckCards(t.hand_count)):null)),ts(e,n),z(a.deckDiscard,"discard",pn(t.draw_discard,a.deckEmpty)),s("div",{class:"row small-zones"},z(a.deckSpyDiscard,"spy-discard",s("p",{},a.deckCards(t.spy_discard_count))),z(a.deckRemoved,"removed",pn(t.removed,a.deckNone))))}function as(e,t){let n=t.scores[0]??e.owned_faces??0;return{why:t.reason==="no-ace-left"?a.deckLostAces(n):t.winners.length>0?a.deckWon(n):a.deckLostFaces(n),figures:a.deckScore(n)}}var fn={id:"deck-of-spies",title:a.deckTitle,options:[{kind:"flag",key:"strict_necessity",label:a.deckStrict},{kind:"flag",key:"ace_counts_in_necessity",label:a.deckAceCounts},{kind:"flag",key:"retire_multiple_ranks",label:a.deckRetireMany}],table:ns,handKey:e=>JSON.stringify(e.hand),describe:mn,narrate:es,scoreLabel:a.deckKeySpies,explain:as};var Xe=F["spies-and-lies"].figures;function P(e){return a.slSide(e)}function bt(e){return e.sides.find(t=>t.side===e.side)}function wt(e){switch(e.type){case"deploy":return a.slDeploy(e.soldiers.map((t,n)=>a.slDeployOn(le(t),n+1)).join(", "));case"mark_sergeant":return e.token?a.slMark:a.slNoMark;case"confirm_intel":return a.slConfirm;case"deceive":return a.slDeceive;case"decline_deception":return a.slDecline;case"guess":return a.slGuess(le(e.rank));case"choose_marshal":return e.option==="points"?a.slMarshalPoints:a.slMarshalSabotage;case"choose_captain":return e.borrow===null||e.borrow===void 0?a.slCaptainPoints:a.slCaptainBorrow(le(e.borrow));default:return e.type}}function ss(e,t){switch(e.type){case"spies_and_lies_started":return a.slStarted(e.players);case"soldiers_deployed":return a.slDeployed(P(e.side),t(e.seat),e.count,e.soldiers===null?"":e.soldiers.map(n=>le(n)).join(", "));case"intel_card_turned":return a.slIntelTurned(e.day,e.card.join(", "));case"intel_marked":return a.slIntelMarked(P(e.side));case"intel_tokens_revealed":{let n=e.starting_side;return a.slIntelRevealed(n==null?"":P(n))}case"deception_played":return a.slDeceived(P(e.side),e.mission);case"deception_declined":return a.slDeclined(P(e.side),e.mission);case"soldier_revealed":{let n=e.forced_by;return a.slRevealed(P(e.guesser),le(e.guess),P(e.side),e.mission,le(e.rank),e.correct,n==null?"":a.slForcedBy(String(n)))}case"infiltration_points_gained":return a.slGained(P(e.side),a.slPoints(e.amount),a.slPointSource(String(e.source)),e.tower,e.infiltrated);case"infiltration_points_lost":return a.slLost(P(e.side),a.slPoints(e.amount),e.tower);case"double_agent_moved":return a.slMoved(P(e.side),a.slSteps(e.steps),a.slMoveCause(String(e.cause)),e.position);case"soldier_effect_started":return a.slEffect(P(e.side),a.slEffectName(String(e.effect)));case"marshal_chosen":return a.slMarshal(P(e.side),e.option==="points"?a.slMarshalPoints:a.slMarshalSabotage);case"captain_chosen":{let n=e.borrow;return n==null?a.slCaptainTook(P(e.side)):a.slCaptainBorrowed(P(e.side),le(n))}case"deception_token_gained":return a.slTokenGained(P(e.side));case"double_damage_earned":return a.slDoubleDamage(P(e.side));case"flag_captured":return a.slFlagCaptured(P(e.side));case"spies_and_lies_day_ended":return a.slDayEnded(e.day,P(e.next_starting_side));case"spies_and_lies_ended":{let n=e.winner;return e.draw||n===null?a.slEndedDraw:a.slEnded(P(n))}default:return null}}function rs(e){let t=e.board_length+1,n=(2*t+1)*40,r=g("svg",{viewBox:`0 0 ${n} 70`,class:"board",role:"img","aria-label":a.slBoardLabel(e.double_agent,t)});for(let i=-t;i<=t;i++){let l=(i+t)*40+20,d=Math.abs(i)===t,c=i<0?"#b3261e":i>0?"#1f4fa8":"#777";r.append(d?g("path",{d:`M${l-8} 52V14l18 8-18 8`,stroke:c,"stroke-width":3,fill:c}):g("circle",{cx:l,cy:35,r:14,fill:"#fff",stroke:c,"stroke-width":3}),g("text",{x:l,y:66,class:"board-label","text-anchor":"middle"},i))}let o=(e.double_agent+t)*40+20;return r.append(g("circle",{cx:o,cy:35,r:10,class:"double-agent"}),g("title",{},a.slDoubleAgent)),s("div",{class:"board-wrap"},r)}function is(e){let t=s("span",{class:`tower-fill side-${e.colour}`});return t.style.width=`${e.tower*100/Xe.infiltration_at}%`,s("div",{class:"tower",role:"meter","aria-valuemin":0,"aria-valuemax":Xe.infiltration_at,"aria-valuenow":e.tower,"aria-valuetext":a.slTowerText(e.tower),"aria-label":a.slInfiltrationOf(a.slSide(e.side))},t,s("span",{class:"tower-text"},`${e.tower} / ${Xe.infiltration_at}`))}function os(e,t){return s("ol",{class:"missions"},...t.missions.map(n=>{let r=e.mission===n.mission&&e.defender===t.side,o;if(n.rank!==null){let i=n.retreated?"retreated":n.face_up?"activated":"hidden-own";o=$e(n.rank,t.colour,i)}else n.deployed?o=De(a.slFaceDownSoldier(a.slSide(t.side)),t.colour):o=s("span",{class:"slot"},a.slEmpty);return s("li",{class:`mission${r?" current":""}`},s("span",{class:"mission-name"},a.slMission(n.mission)),o,s("span",{class:"markers"},n.intel===!0?s("span",{class:"intel-token",title:a.slIntelToken},a.slIntel):null,n.deception?s("span",{class:"deception-token",title:a.slDeceptionToken},a.slDeception):null,n.rank!==null&&!n.face_up?s("span",{class:"note"},a.slFaceDown):null))}))}function gn(e,t,n){return z(a.sideOf(a.slSideCap(t.side),U(t.seats.map(n))),`side side-${t.colour}${e.to_act.some(r=>t.seats.includes(r))?" acting":""}`,is(t),s("p",{class:"side-stats"},a.slSideStats(t.hand_size,t.deception_tokens),t.double_damage?a.slDoubleDamageTag:"",t.effects.length>0?a.slEffects(t.effects.map(r=>a.slEffectName(String(r))).join(", ")):""),os(e,t),t.exhausted.length===0?null:s("div",{class:"exhausted"},s("span",{},a.slExhausted),...t.exhausted.map(r=>$e(r,t.colour,"exhausted"))))}function ls(e,t){let n=e.legal.filter(u=>u.type==="deploy"),o=e.legal.filter(u=>u.type!=="deploy").map(u=>be(e,u,wt(u)));if(n.length===0)return pe(null,...o);let i=He(t,e.selection),l=n.filter(u=>xe(u.soldiers,i)),d=n[0]?.soldiers.length??0,c=i.length<d?a.slHintDeploy(i.length,d):l.length===0?a.slHintCannot:a.slHintWhere;return pe(c,...l.map(u=>be(e,u,wt(u))),...o)}function ds(e){let t=e.view,n=t.side??0,r=[...t.sides].sort((u,m)=>(u.side===n?1:0)-(m.side===n?1:0)),o=bt(t)?.hand??[],i=bt(t)?.colour??"red",l=e.legal.some(u=>u.type==="deploy"),[d,c]=r;return s("div",{class:"table spies-table"},s("p",{class:"deal-line"},`${a.slDayLine(t.day,a.slPhase(t.phase))}${t.stage===null?"":` (${a.slStage(t.stage)})`}${t.turn===null?"":a.slGuessTurn(t.turn)}${t.guesser===null?"":a.slGuesses(P(t.guesser))}`),d===void 0?null:gn(t,d,e.name),z(a.slBoard,"board-zone",rs(t),s("div",{class:"intel"},s("span",{},a.slIntelLabel),t.current_intel===null?s("span",{class:"empty"},a.slNotTurned):s("strong",{class:"intel-card"},t.current_intel.join(" ")),s("span",{},a.slOldIntel(t.old_intel.map(u=>u.join(" ")).join(" | "),t.intel_deck_size,t.deception_reserve_left)))),c===void 0?null:gn(t,c,e.name),z(t.side===null?a.handHidden:a.yourHand,"hand-zone",s("div",{class:"hand","data-testid":"hand",role:"group","aria-label":a.yourHand},...o.map((u,m)=>l?Pe(e,m,u,$e(u,i),le(u)):s("span",{class:"hand-card idle"},$e(u,i))))),ls(e,o))}function cs(){let e=g("svg",{viewBox:"0 0 24 24",class:"symbol-icon","aria-hidden":"true"},g("path",{d:"M6 22V3l12 5-12 5",stroke:"#b3261e","stroke-width":2.5,fill:"#b3261e"})),t=g("svg",{viewBox:"0 0 24 24",class:"symbol-icon","aria-hidden":"true"},g("circle",{cx:12,cy:12,r:8,class:"double-agent"})),n=g("svg",{viewBox:"0 0 24 24",class:"symbol-icon","aria-hidden":"true"},g("rect",{x:2,y:7,width:20,height:12,rx:2,fill:"#fff",stroke:"#333"})),r=g("svg",{viewBox:"0 0 24 24",class:"symbol-icon","aria-hidden":"true"},g("rect",{x:6,y:2,width:12,height:20,rx:2,fill:"#fff",stroke:"#333"})),o=g("svg",{viewBox:"0 0 24 24",class:"symbol-icon","aria-hidden":"true"},g("rect",{x:1,y:8,width:22,height:8,rx:2,fill:"#ccc"}),g("rect",{x:1,y:8,width:12,height:8,rx:2,fill:"#4a7fd9"}));return Qe([e,a.slLegendFlag],[t,a.slLegendAgent],[n,a.slLegendSideways],[r,a.slLegendFaceUp],[s("span",{class:"intel-token"},a.slIntel),a.slLegendIntel],[s("span",{class:"deception-token"},a.slDeception),a.slLegendDeception],[o,a.slLegendTower])}function us(e,t){let n=e.sides.find(l=>t.winners.some(d=>l.seats.includes(d))),r=e.sides.find(l=>l!==n),o=a.slMarkers(e.sides.map(l=>`${a.slSideCap(l.side)} ${l.tower}`).join(", ")),i;return t.draw||n===void 0?i=a.slInfiltrationDraw:t.reason==="flag-captured"?i=a.slFlag(a.slSideCap(n.side),a.slSide(r?.side??1-n.side)):t.reason==="territory"?i=a.slTerritory(a.slSideCap(n.side),a.slSide(r?.side??1-n.side)):i=a.slInfiltration,{why:i,figures:o}}var yn={id:"spies-and-lies",title:a.slTitle,options:[{kind:"number",key:"board_length",label:a.slBoardLength,min:1,max:Xe.max_board_length},{kind:"flag",key:"deception_pays_on_forced_retreat",label:a.slDeceptionPays},{kind:"choice",key:"deception_reserve",label:a.slReserve}],table:ds,handKey:e=>JSON.stringify(bt(e)?.hand??null),describe:wt,narrate:ss,scoreLabel:a.slScoreLabel,explain:us,legend:cs};var et={"deck-of-spies":fn,"black-spy":hn,"spies-and-lies":yn},kt=Object.values(et);function hs(e){return Object.hasOwn(et,e)}function H(e){return hs(e)?et[e]:void 0}function tt(e){return et[e]}function nt(e){return tt(e.view.game).table(e)}function St(e){return tt(e.game).handKey(e)}function bn(e,t,n){return tt(e.game).explain(e,t,n)}function at(e){return tt(e.game).legend?.(e)??null}var vt="spies:player";function st(){try{return localStorage.getItem(vt)}catch{return null}}function wn(e){localStorage.setItem(vt,e)}function Tt(){localStorage.removeItem(vt)}function ps(){let e=st();return e===null?{}:{Authorization:`Bearer ${e}`}}async function We(e){let t=await e(ps());return st()===null||oe(t.error)!=="unknown-player"?t:(Tt(),e({}))}var oi=new TextEncoder;var kn=["game_id","seq","head_hash","key_id","signature"];function Dt(e){if(typeof e!="object"||e===null||Array.isArray(e))return null;let t=e,n=Object.keys(t);if(n.length!==kn.length||!kn.every(c=>n.includes(c)))return null;let{game_id:r,seq:o,head_hash:i,key_id:l,signature:d}=t;return typeof r!="string"||typeof i!="string"||typeof l!="string"||typeof d!="string"||typeof o!="number"||!Number.isSafeInteger(o)?null:{game_id:r,seq:o,head_hash:i,key_id:l,signature:d}}var Sn="spies:receipts:",ms=16;function At(e){try{let t=JSON.parse(localStorage.getItem(Sn+e)??"[]");return Array.isArray(t)?t.map(Dt).filter(n=>n!==null&&n.game_id===e):[]}catch{return[]}}function de(e){let t=Dt(e);if(t===null)return;let n=At(t.game_id).filter(r=>r.seq!==t.seq||r.head_hash!==t.head_hash);n.push(t),n.sort((r,o)=>r.seq-o.seq);try{localStorage.setItem(Sn+t.game_id,JSON.stringify(n.slice(-ms)))}catch{}}var $t="spies:tokens:";function ce(e){let t=new Map;try{let n=JSON.parse(localStorage.getItem($t+e)??"{}");if(typeof n=="object"&&n!==null)for(let[r,o]of Object.entries(n))typeof o=="string"&&/^\d+$/.test(r)&&t.set(Number(r),o)}catch{}return t}function me(e,t,n){let r=ce(e);r.set(t,n),localStorage.setItem($t+e,JSON.stringify(Object.fromEntries(r)))}function vn(e,t){let n=ce(e);n.delete(t),localStorage.setItem($t+e,JSON.stringify(Object.fromEntries(n)))}var Tn="spies:seat:";function Dn(e){let t=localStorage.getItem(Tn+e);if(t!==null)return t==="spectator"?null:Number(t)}function se(e,t){localStorage.setItem(Tn+e,t===null?"spectator":String(t))}function Re(e,t){let n=typeof e=="object"&&e!==null&&"code"in e?String(e.code):"",r=t===void 0?a.thisSeat:a.seatCapital(t);switch(n){case"seat-taken":return a.seatTaken(r);case"no-open-seat":return a.noOpenSeat;case"game-over":return a.joinOver;case"seat-not-found":return a.noSuchSeat(a.suchSeat);case"game-not-found":return a.noSuchGame;case"invalid-name":return a.badName(L(e));default:return L(e)}}function fs(e,t){if(e.status==="finished")return Re({code:"game-over"},t);let n=e.seats.find(r=>r.seat===t);return n===void 0?Re({code:"seat-not-found"},t):n.type!=="open"?`${Re({code:"seat-taken"},t)} (${n.name??ge(n)})`:null}async function An(e,t,n){document.title=`${a.joinTitle(n)} · spies`;let r=s("p",{class:"error",role:"alert","data-testid":"join-error"}),o=s("nav",{},s("a",{href:"/"},a.lobby)," · ",s("a",{href:`/play/${t}`},a.watchThisGame)," · ",J()),i=s("h1",{},a.joinTitle(n));if(k(e,s("header",{class:"page-head"},o,i),r),ce(t).has(n)){e.append(s("p",{},a.alreadyHeld,s("a",{href:`/play/${t}`},a.goToTable)));return}let{data:l,error:d}=await $.GET("/games/{game_id}",{params:{path:{game_id:t}}});if(l===void 0){r.textContent=Re(d,n);return}let c=H(l.game);i.textContent=a.joinTitleOf(n,c?.title??l.game);let u=fs(l,n);if(u!==null){r.textContent=u;return}let m=s("input",{type:"text",id:"join-name",required:!0,maxlength:40,autocomplete:"nickname",value:Ye(),"data-testid":"join-name"}),f=s("button",{type:"submit","data-testid":"join"},a.takeSeat(n)),h=l.seats.filter(T=>T.seat!==n).map(T=>s("li",{},`${_(T.seat)}: ${ln(T)}`)),p=s("form",{class:"create join","aria-labelledby":"join-title"},s("h2",{id:"join-title"},a.othersTitle(l.players)),s("ul",{},...h),s("label",{for:"join-name"},a.joinName),m,f);p.addEventListener("submit",T=>{T.preventDefault();let w=m.value.trim();if(w===""){r.textContent=a.typeName,m.focus();return}f.disabled=!0,(async()=>{let{data:b,error:S}=await We(y=>$.POST("/games/{game_id}/seats/{seat}/join",{params:{path:{game_id:t,seat:n}},body:{name:w,...Ze(l)},headers:y}));if(f.disabled=!1,b===void 0){r.textContent=Re(S,n);return}Oe(w),me(t,b.seat,b.token),de(b.receipt),se(t,b.seat),location.assign(`/play/${t}`)})()}),e.append(p),m.focus()}var Ge=F;function $n(e){return Object.hasOwn(Ge,e)}var xn=Object.keys(Ge).filter($n);function xt(e){return Ge[e].seatCounts}function En(e){return Ge[e].options}function Q(e,t){return`/rules/${encodeURIComponent(e)}${t===void 0?"":`#s-${t}`}`}function Rn(e,t){return t===void 0||!$n(e)?void 0:Ge[e].refusals[t]}function _n(e,t){return Ge[e].endings[t]}function Be(e,t){return s("a",{href:Q(e,t),class:"rule-link","data-testid":"rule-link"},a.ruleLink(t))}function gs(e,t){let n=`option-${t.key}`,r=En(e)[t.key],o=r?.default;switch(t.kind){case"flag":return s("label",{class:"check"},s("input",{type:"checkbox",id:n,name:t.key,checked:o===!0}),` ${t.label}`);case"number":return s("label",{},`${t.label} `,s("input",{type:"number",id:n,name:t.key,value:Number(o),min:t.min,max:t.max}));case"choice":return s("label",{},`${t.label} `,s("select",{id:n,name:t.key},...(r?.choices??[]).map(i=>s("option",{value:i,selected:i===o},i))))}}function ys(e,t){let n=e.elements.namedItem(t.key);return n instanceof HTMLInputElement?t.kind==="flag"?n.checked:Number(n.value):n instanceof HTMLSelectElement?n.value:void 0}function bs(e,t,n){let r=`seat-type-${e}`;return s("label",{class:"seat-choice"},`${_(e)} `,s("select",{id:r,name:r,"data-testid":r},s("option",{value:"creator",selected:n==="creator"},a.seatMe),s("option",{value:"open",selected:n==="open"},a.seatOpen),...t.map(o=>s("option",{value:`bot:${o.name}`,selected:n===`bot:${o.name}`,title:o.description},a.seatBot(o.name)))))}function ws(e){let[t,n]=e.split(":"),r=Number(n);return t==="turn"?{clock:{turn_seconds:r}}:t==="budget"?{clock:{budget_seconds:r*60,increment_seconds:5}}:{}}function ks(e,t){return e==="open"?{type:"open"}:e.startsWith("bot:")?{type:"bot",bot:e.slice(4)}:{type:"creator",name:t}}function Ss(e,t,n,r){k(e,s("h2",{id:"created-title"},a.gameCreated),s("p",{},a.shareHint),s("ul",{class:"share-links","data-testid":"share-links"},...n.map(o=>s("li",{},s("label",{for:`share-${o}`},`${_(o)} `),s("input",{id:`share-${o}`,readonly:!0,value:Ie(t,o),"data-testid":`share-${o}`})))),s("p",{},s("a",{href:`/play/${t}`,"data-testid":"to-table"},r?a.toTable:a.watchTable))),e.hidden=!1,e.querySelector("input")?.focus()}function vs(e,t,n,r){let o=s("select",{id:"new-game",name:"game","data-testid":"new-game"},...kt.map(b=>s("option",{value:b.id},b.title))),i=s("input",{type:"number",id:"new-players",name:"players","data-testid":"new-players"}),l=s("fieldset",{class:"options"}),d=s("fieldset",{class:"options seats","data-testid":"seats"}),c=s("input",{type:"text",id:"new-seed",name:"seed",placeholder:a.seedPlaceholder,"data-testid":"new-seed"}),u=s("select",{id:"new-clock",name:"clock","data-testid":"new-clock"},s("option",{value:""},a.clockNone),s("option",{value:"turn:30"},a.clockTurn(30)),s("option",{value:"turn:60"},a.clockTurn(60)),s("option",{value:"budget:5"},a.clockBudget(5))),m=s("input",{type:"checkbox",id:"new-fair",name:"fair",checked:!0,"data-testid":"new-fair"}),f=s("p",{class:"error",role:"alert"}),h=s("form",{class:"create","aria-labelledby":"create-title"},s("h2",{id:"create-title"},a.newGame),s("label",{for:"new-game"},a.gameLabel),o,s("p",{class:"hint"},s("a",{href:Q(o.value),"data-testid":"lobby-rules"},a.rulesOf(H(o.value)?.title??o.value))),s("label",{for:"new-players"},a.seatsLabel),i,l,d,s("label",{for:"new-clock"},a.clockLegend),u,s("label",{for:"new-seed"},a.seedLabel),c,s("label",{class:"check"},m,` ${a.fairLabel}`),s("p",{class:"hint"},a.fairHint),s("p",{class:"hint"},a.createHint),s("button",{type:"submit","data-testid":"create"},a.create),f),p=()=>t.filter(b=>b.games.includes(o.value)),T=()=>{let b=[...d.querySelectorAll("select")].map(M=>M.value),S=H(o.value),y=S===void 0?[]:xt(S.id),C=Math.max(0,Math.min(y[y.length-1]??0,Number(i.value)||0)),G=p(),R=Array.from({length:C},(M,D)=>bs(D,G,b[D]??"creator"));k(d,s("legend",{},a.whoPlays),...R)},w=()=>{let b=H(o.value);if(b===void 0)return;let S=xt(b.id),y=String(S[0]??1),C=String(S[S.length-1]??1);i.min=y,i.max=C,i.value=y,i.disabled=y===C,k(l,s("legend",{},a.options),...b.options.map(R=>gs(b.id,R)));let G=h.querySelector("[data-testid=lobby-rules]");G!==null&&(G.href=Q(b.id),G.textContent=a.rulesOf(b.title)),k(d),T()};return o.addEventListener("change",w),i.addEventListener("input",T),w(),h.addEventListener("submit",b=>{b.preventDefault();let S=H(o.value);if(S===void 0)return;let y={};for(let R of S.options)y[R.key]=ys(h,R);let C=e.value.trim();C!==""&&Oe(C);let G=[...d.querySelectorAll("select")].map(R=>ks(R.value,C===""?null:C));(async()=>{let R=c.value.trim();f.textContent="";let M=null;if(m.checked&&R===""){let I=await Yt();if("error"in I){f.textContent=L(I.error);return}M=I.deal}let D={game:S.id,players:Number(i.value),options:y,seats:G,seed:R===""?null:R,...M===null?{}:{commitment_id:M.commitment_id,entropy:M.entropy},...ws(u.value)},{data:v,error:K}=await We(I=>$.POST("/games",{body:D,headers:I}));if(v===void 0){f.textContent=L(K);return}if(de(v.receipt),M!==null&&!await Ts(v.id,M)){f.textContent=a.commitmentBroken;return}let j=!1;for(let I of v.seats)I.token!==void 0&&(me(v.id,I.seat,I.token),j=!0);let ue=v.seats.filter(I=>I.type==="open").map(I=>I.seat);ue.length>0?(Ss(n,v.id,ue,j),r()):location.assign(`/play/${v.id}`)})()}),h}async function Ts(e,t){let{data:n}=await $.GET("/games/{game_id}",{params:{path:{game_id:e}}});return n===void 0||Qt(t,n.seed_commitment)}async function Ds(e,t,n){let r=e.id,o=t.value.trim();if(o===""){n.textContent=a.typeNameFirst,t.focus();return}Oe(o);let{data:i,error:l}=await We(d=>$.POST("/games/{game_id}/join",{params:{path:{game_id:r}},body:{name:o,...Ze(e)},headers:d}));if(i===void 0){n.textContent=Re(l);return}me(r,i.seat,i.token),de(i.receipt),se(r,i.seat),location.assign(`/play/${r}`)}function As(e,t,n){let r=H(e.game)?.title??e.game,o=Le(e),i=e.seats.filter(d=>d.type!=="open").map(d=>`${_(d.seat)}: ${d.name??ge(d)}`),l=s("a",{href:Q(e.game),class:"row-rules"},a.rules);return s("tr",{"data-open-game":e.id},s("td",{},r," ",l),s("td",{},s("code",{class:"game-id"},e.id)),s("td",{},i.join(", ")||"-"),s("td",{},...o.flatMap((d,c)=>[c>0?" ":null,s("a",{href:`/join/${e.id}/${d}`},a.joinSeat(d))])),s("td",{},s("button",{type:"button","data-testid":"join-first",onclick:()=>{Ds(e,t,n)}},a.joinFirst)))}async function Cn(e,t,n){let{data:r,error:o}=await $.GET("/games",{params:{query:{open:!0}}});if(r===void 0){k(e,s("p",{class:"error",role:"alert"},L(o)));return}let i=r.games;k(e,i.length===0?s("p",{class:"empty"},a.noOpenGame):s("table",{class:"games","data-testid":"open-games"},s("caption",{},a.openCaption(r.total)),s("thead",{},s("tr",{},...a.openHeads.map(l=>s("th",{scope:"col"},l)))),s("tbody",{},...i.map(l=>As(l,t,n)))))}function $s(e){let t=()=>{me(e.game_id,e.seat,e.seat_token),se(e.game_id,e.seat)};return s("tr",{"data-my-game":e.game_id},s("td",{},H(e.game)?.title??e.game),s("td",{},s("code",{class:"game-id"},e.game_id)),s("td",{},_(e.seat)),s("td",{},e.status==="finished"?a.finished:a.toActList(e.to_act.join(", ")||"-")),s("td",{},s("a",{href:`/play/${e.game_id}`,onclick:t,"data-testid":"back-to-seat"},a.backToSeat)))}async function rt(e,t){let n=st();if(n===null){let i=s("p",{class:"error",role:"alert"}),l=async()=>{let d=t.value.trim(),{data:c,error:u}=await $.POST("/players",{body:d===""?{}:{display_name:d}});if(c===void 0){i.textContent=L(u);return}wn(c.token),await rt(e,t)};k(e,s("p",{class:"hint"},a.keepMyGamesHint),s("button",{type:"button","data-testid":"keep-my-games",onclick:()=>{l()}},a.keepMyGames),i);return}let{data:r,error:o}=await $.GET("/players/me/games",{headers:{Authorization:`Bearer ${n}`}});if(r===void 0){if(oe(o)==="unknown-player"){Tt(),await rt(e,t);return}k(e,s("p",{class:"error",role:"alert"},L(o)));return}k(e,r.games.length===0?s("p",{class:"empty"},a.noMyGame):s("table",{class:"games","data-testid":"my-games"},s("thead",{},s("tr",{},...a.myGamesHeads.map(i=>s("th",{scope:"col"},i)))),s("tbody",{},...r.games.map($s))))}function xs(e){let t=ce(e.id).size,n=H(e.game)?.title??e.game;return s("tr",{"data-game":e.id},s("td",{},n," ",s("a",{href:Q(e.game),class:"row-rules"},a.rules)),s("td",{},s("code",{class:"game-id"},e.id)),s("td",{},e.players),s("td",{},e.status==="finished"?a.finished:a.toActList(e.to_act.join(", ")||"-")),s("td",{},e.version),s("td",{},s("a",{href:`/play/${e.id}`},e.status==="active"&&t>0?a.play:a.watch)," · ",s("a",{href:`/replay/${e.id}`},a.replay)))}async function Et(e,t){let n=t==="active"||t==="finished"?{status:t}:{},{data:r,error:o}=await $.GET("/games",{params:{query:n}});if(r===void 0){k(e,s("p",{class:"error",role:"alert"},L(o)));return}let i=r.games;k(e,i.length===0?s("p",{class:"empty"},a.noGame):s("table",{class:"games","data-testid":"games"},s("caption",{},a.gamesCaption(r.total)),s("thead",{},s("tr",{},...a.gamesHeads.map(l=>s("th",{scope:"col"},l)))),s("tbody",{},...i.map(xs))))}function Mn(e){document.title=a.lobbyTitle;let t=s("div",{class:"game-list"},a.loading),n=s("div",{class:"game-list"},a.loading),r=s("div",{class:"game-list","data-testid":"my-games-box"},a.loading),o=s("p",{class:"error",role:"alert","data-testid":"lobby-error"}),i=s("input",{type:"text",id:"my-name",maxlength:40,autocomplete:"nickname",value:Ye(),"data-testid":"my-name"}),l=s("section",{class:"created","aria-labelledby":"created-title","data-testid":"created",hidden:!0}),d=s("select",{id:"list-status","aria-label":a.showGames},s("option",{value:"active"},a.inProgress),s("option",{value:"finished"},a.finished),s("option",{value:"all"},a.allGames));d.addEventListener("change",()=>{Et(t,d.value)});let c=s("div",{class:"lobby-side"},s("p",{class:"my-name"},s("label",{for:"my-name"},a.myName),i),l);k(e,s("header",{class:"page-head"},s("nav",{},J()),s("h1",{},a.appName),s("p",{},`${a.lobbyIntro} `,s("a",{href:"/schema"},a.apiDocs)),s("p",{class:"lobby-rules"},`${a.rules}: `,...kt.flatMap((u,m)=>[m>0?" · ":null,s("a",{href:Q(u.id)},u.title)]))),s("main",{class:"lobby"},c,s("div",{class:"lobby-lists"},s("section",{class:"list","aria-labelledby":"mine-title"},s("h2",{id:"mine-title"},a.myGamesTitle),r),s("section",{class:"list","aria-labelledby":"open-title"},s("h2",{id:"open-title"},a.openSeatsTitle),o,n),s("section",{class:"list","aria-labelledby":"list-title"},s("h2",{id:"list-title"},a.gamesTitle),d,t)))),Et(t,"active"),Cn(n,i,o),rt(r,i),(async()=>{let{data:u}=await $.GET("/bots"),m=()=>{Et(t,d.value),Cn(n,i,o),rt(r,i)};c.insertBefore(vs(i,u?.bots??[],l,m),l)})()}function Rt(e){let t=oe(e);return t===void 0?{text:a.refused(L(e))}:{text:a.refused(L(e)),code:t}}var Fe="server-down",Ln=new Set(["unauthorized","forbidden"]);async function _t(e){let t;try{t=await $.GET("/games/{game_id}",{params:{path:{game_id:e}}})}catch{return{kind:"problem",text:a.deadServerDown,code:Fe}}if(t.data!==void 0)return{kind:"summary",summary:t.data};let n=oe(t.error),r=L(t.error);return n===void 0?{kind:"problem",text:r}:{kind:"problem",text:r,code:n}}async function In(e,t){let n={params:{path:{game_id:e}}},r;try{r=await Promise.all([$.GET("/games/{game_id}",n),$.GET("/games/{game_id}/view",{...n,headers:Y(t)}),t===void 0?Promise.resolve(null):$.GET("/games/{game_id}/legal",{...n,headers:Y(t)})])}catch{return{kind:"problem",text:a.deadServerDown,code:Fe}}let[o,i,l]=r;if(o.data===void 0||i.data===void 0){let d=o.error??i.error,c=oe(d);return c===void 0?{kind:"problem",text:L(d)}:{kind:"problem",text:L(d),code:c}}return o.data.version!==i.data.version||l?.data!==void 0&&l.data.version!==i.data.version?{kind:"moved"}:{kind:"table",summary:o.data,view:i.data,legal:l?.data?.commands??[]}}async function Pn(e,t,n,r){let{data:o,error:i}=await $.POST("/games/{game_id}/commands",{params:{path:{game_id:e},header:{"Idempotency-Key":crypto.randomUUID()}},headers:Y(t),body:{command:n,expected_version:r}});return o!==void 0?(de(o.receipt),{kind:"accepted",version:o.version}):{kind:"refused",...i?.code==="version-conflict"?{text:a.tableMoved}:Rt(i)}}async function Hn(e,t,n,r){let{data:o,error:i}=await $.POST("/games/{game_id}/seats/{seat}/bot",{params:{path:{game_id:e,seat:t}},headers:Y(n),body:{bot:r}});return de(o?.receipt),i===void 0?null:Rt(i)}async function Gn(e,t,n){let{data:r,error:o}=await $.DELETE("/games/{game_id}/seats/{seat}/bot",{params:{path:{game_id:e,seat:t}},headers:Y(n)});return de(r?.receipt),o===void 0?null:Rt(o)}async function Bn(e,t,n,r){let o=[...t.entries()].sort(([l],[d])=>l===n?-1:d===n?1:l-d),i=null;for(let[l,d]of o){let{data:c,error:u}=await $.POST("/games/{game_id}/rematch",{params:{path:{game_id:e}},headers:Y(d)});if(c===void 0){r(a.noRematch(_(l),L(u)));continue}me(c.id,c.seat,c.token),de(c.receipt),i===null&&se(c.id,c.seat),i=c.id}i!==null&&location.assign(`/play/${i}`)}async function zn(e){let t=/(?:^#|&)token=([A-Za-z0-9_\-.~+/=]+)/.exec(location.hash);if(t===null)return null;history.replaceState(null,"",location.pathname+location.search);let n=t[1]??"",{data:r,error:o}=await $.GET("/games/{game_id}/view",{params:{path:{game_id:e}},headers:Y(n)});return r===void 0||r.seat===null||r.seat===void 0?a.badSeatLink(L(o)):(me(e,r.seat,n),se(e,r.seat),null)}async function Nn(){let{data:e}=await $.GET("/bots");return e?.bots??[]}var On=new Set(["game-not-found",Fe]);function Wn(e,t,n){let r=n===Fe,o=r?a.deadServerDownTitle:a.deadUnknownGameTitle;document.title=`${o} · spies`;let i=r?a.deadServerDown:a.deadUnknownGame(t),l=r?s("button",{type:"button","data-testid":"try-again",onclick:()=>location.reload()},a.deadTryAgain):s("a",{href:"/","data-testid":"new-game-link"},a.deadNewGame);k(e,s("main",{class:"dead-end","data-testid":"dead-end","data-code":n},s("h1",{},o),s("p",{},i),s("p",{},l),r?s("p",{},s("a",{href:"/"},a.backToLobby)):null))}function Fn(e,t){let n=t.lost,r=n?.reason==="refused"?a.seatNoticeRefused(_(n.seat)):n?.reason==="link"?a.seatNoticeLink:t.tokens.size===0&&t.summary.status!=="finished"?a.seatNoticeNone:null;if(e.hidden=t.seat!==null||r===null,e.hidden||r===null){k(e);return}e.dataset.reason=n?.reason??"none",k(e,s("h2",{id:"seat-notice-title"},a.seatNoticeTitle),s("p",{},r),s("p",{},a.seatNoticeWatch),s("p",{},a.seatNoticeForward," ",s("a",{href:"/","data-testid":"new-game-link"},a.deadNewGame),"."))}function Kn(e){let t=null;e.addEventListener("focusin",r=>{let o=r.target;t=o instanceof HTMLElement?o.getAttribute("data-key"):null});function n(r,o){let i=e.querySelector(`[data-key="${CSS.escape(r)}"]`);i!==null&&!i.disabled?i.focus():r.startsWith("command:")&&!o&&e.querySelector("[data-testid=command]:not(:disabled)")?.focus()}return(r,o)=>{let i=e.contains(document.activeElement)||document.activeElement===document.body;k(e,r),t!==null&&i&&n(t,o)}}function jn(e,t,n){let r=s("h1",{},a.game),o=s("p",{class:"status","data-testid":"status",role:"status"},a.loading),i=s("p",{class:"error","data-testid":"error",role:"alert"},n??""),l=s("section",{class:"seat-notice","data-testid":"seat-notice","aria-labelledby":"seat-notice-title",hidden:!0}),d=s("select",{id:"seat-select","data-testid":"seat-select"}),c=s("section",{class:"clocks","data-testid":"clocks",hidden:!0}),u=s("section",{class:"outcome","data-testid":"outcome","aria-labelledby":"outcome-title",hidden:!0}),m=s("div",{class:"table-host"}),f=s("div",{class:"legend-host"}),h=s("ol",{class:"log","data-testid":"log","aria-live":"polite","aria-relevant":"additions","aria-label":a.logLabel,tabindex:0}),p=s("details",{class:"seat-links"}),T=s("section",{class:"seats-box","aria-labelledby":"seats-title","data-testid":"seats"}),w=s("a",{href:"/rules/","data-testid":"rules-link"},a.rulesOfThisGame);return k(e,s("header",{class:"page-head"},s("nav",{},s("a",{href:"/"},a.lobby)," · ",s("a",{href:`/replay/${t}`},a.replay)," · ",w," · ",J()),r,s("p",{class:"seat-bar"},s("label",{for:"seat-select"},a.playAs),d),o,i,l,c),u,s("main",{class:"play-main"},s("div",{class:"table-column"},m,f),s("aside",{class:"log-box"},T,s("h2",{},a.log),h)),p),{root:e,title:r,status:o,alert:i,seatNotice:l,seatSelect:d,clocks:c,outcome:u,tableHost:m,legend:f,log:h,links:p,seatsBox:T,rulesLink:w}}function Vn(e){return e.charAt(0).toUpperCase()+e.slice(1)}function Es(e){return Vn(e.replaceAll("_"," "))}function Un(e){return e.type==="clocks_updated"}function it(e,t,n){return Vn(Rs(e,t,n))}function Rs(e,t,n){switch(t.type){case"game_created":return a.evCreated(H(t.game)?.title??t.game,t.players,t.seed_commitment.slice(0,12));case"seat_joined":return a.evJoined(a.seat(t.seat),t.name);case"seat_handed_to_bot":return a.evHanded(n(t.seat),t.bot);case"seat_taken_back":return a.evTakenBack(n(t.seat));case"seat_claimed":return a.evClaimed(n(t.seat));case"entropy_added":return a.evEntropy(t.seat===null||t.seat===void 0?null:n(t.seat));case"seed_revealed":return a.evSeed(t.seed.slice(0,16));case"clock_expired":return t.forfeit?a.evForfeit(n(t.seat)):a.evExpired(n(t.seat));case"clocks_resumed":return a.evResumed;case"clocks_updated":return a.evClocks;case"game_aborted":return t.reason==="abandoned"?a.evAbandoned(t.detail):a.evAborted(t.detail);default:return(e===void 0?void 0:H(e))?.narrate(t,n)??a.evOther(Es(t.type))}}function _s(e,t,n){return s("li",{"data-seq":t.seq},s("span",{class:"seq"},`#${t.seq} `),it(e,t,n))}function qn(e,t,n){let r,o=new Map,i=!1,l=()=>{i=!1,e.scrollTop=e.scrollHeight};return{clear(){e.replaceChildren(),r=void 0,o=new Map},write(d){d.type==="game_created"&&(r=d.game),d.type==="seat_joined"&&o.set(d.seat,d.name),!Un(d)&&(e.append(_s(r??t(),d,n(o))),i||(i=!0,requestAnimationFrame(l)))}}}function Ct(e){let t=0,n=!1;async function r(){n=!0;try{for(;t>0;)t=0,await e()&&(t+=1)}finally{n=!1}}return()=>{t+=1,n||r()}}var Zn=1e4;function Cs(e){let t=Math.max(0,e),n=Math.floor(t/6e4),r=Math.floor(t%6e4/1e3),o=`${n}:${String(r).padStart(2,"0")}`;return t<Zn?`${o}.${Math.floor(t%1e3/100)}`:o}function Ms(){return g("svg",{viewBox:"0 0 16 16",class:"clock-icon","aria-hidden":"true"},g("path",{d:"M3 1h10v3l-3.5 4L13 12v3H3v-3l3.5-4L3 4z",fill:"none",stroke:"currentColor","stroke-width":1.6}))}var je=[],Ke=null;function Jn(e,t){let n=Math.max(0,Math.round(t));e.el.dataset.remainingMs=String(n),e.time.textContent=Cs(n);let r=n<Zn;e.el.classList.toggle("low",r)}function Ls(){let e=performance.now();for(let t of je)Jn(t,t.base-(e-t.since))}function ot(e,t,n,r){let o=t?.seats??[];e.hidden=o.length===0,je=[];let i=performance.now(),l=o.map(d=>{let c=d.deadline!==null&&d.deadline!==void 0,u=s("span",{class:"clock-time"}),m=s("li",{class:`clock${c?" running":""}`,"data-testid":"clock","data-seat":d.seat,"data-running":c?"true":"false"},s("span",{class:"clock-name"},n(d.seat))," ",Ms(),u,c?s("span",{class:"clock-state"},` (${a.clockRunning})`):null);if(d.remaining_ms===null||d.remaining_ms===void 0)u.textContent=a.clockNoLimit;else{let f={el:m,time:u,base:d.remaining_ms,since:i};Jn(f,d.remaining_ms),c&&r&&je.push(f)}return m});e.replaceChildren(...l.length===0?[]:[s("h2",{class:"clocks-title"},a.clocks),s("ul",{class:"clock-list"},...l)]),je.length>0&&Ke===null&&(Ke=window.setInterval(Ls,100)),je.length===0&&Ke!==null&&(window.clearInterval(Ke),Ke=null)}function Is(e,t,n){let r=e.outcome;if(r==null)return a.gameOverShort;if(r.draw)return a.draw;let o=r.winners,i=o.filter(d=>d!==t),l=o.length===0?a.noWinner:o.length===1?a.winsOne(n(o[0])):a.winsShared(U(o.map(n)));return t==null?l:o.includes(t)?i.length===0?a.youWin:`${a.youWin} ${l}`:o.length===0?a.youLose:`${a.youLose} ${l}`}function Ps(e){return e==="aborted"?{headline:a.endedAborted,why:a.endedAbortedWhy}:e==="abandoned"?{headline:a.endedAbandoned,why:a.endedAbandonedWhy}:null}function lt(e,t,n,r){let o=e.outcome;if(o==null)return{headline:a.gameOverShort,why:null,figures:null,section:void 0};let i=Ps(o.reason);if(i!==null)return{...i,figures:null,section:void 0};let l=bn(t,o,r);return{headline:Is(e,n,r),...l,section:_n(t.game,o.reason)}}function Yn(e,t,n,r,o){if(e.status==="finished")return a.gameOverShort;if(t.dealt===!1)return a.waitingForPlayers(Le(e).length);let i=e.to_act,l=e.seats.find(u=>u.seat===n)?.bot;if(n!==null&&i.includes(n))return l==null?a.yourTurn(_(n)):a.botPlaysYourTurn(l,_(n));let d=i.filter(u=>r.has(u)),c=a.waitingFor(U(i.map(u=>o(u))));return d.length>0?`${c}${a.switchSeats(U(d.map(_)))}`:c}function Qn(e,t,n,r){let o=t.summary,i=e.hidden&&o.status==="finished",l=e.contains(document.activeElement)?document.activeElement:null,d=l===null?null:l.id!==""?`#${l.id}`:`[data-testid="${l.getAttribute("data-testid")??""}"]`;if(e.hidden=o.status!=="finished",o.status!=="finished"){k(e);return}let c=lt(o,t.view,t.seat,r),u=o.rematch??null;k(e,s("h2",{id:"outcome-title",tabindex:-1},a.gameOverTitle),s("p",{class:"outcome-headline","data-testid":"outcome-headline"},c.headline),c.why===null?null:s("p",{"data-testid":"outcome-why"},c.why,c.section===void 0?null:" ",c.section===void 0?null:Be(o.game,c.section)),c.figures===null?null:s("p",{"data-testid":"outcome-figures"},c.figures),s("p",{},a.gameOverNoMoves),t.tokens.size>0?s("p",{},s("button",{type:"button",class:"rematch","data-testid":"rematch",onclick:n},u===null?a.rematch:a.joinRematch)):u===null?null:s("p",{},s("a",{href:`/play/${u}`,"data-testid":"rematch-link"},a.watchRematch)),s("p",{},s("a",{href:`/replay/${t.gameId}`,"data-testid":"replay-link"},a.replayGame)," · ",s("a",{href:"/"},a.backToLobby))),i?e.querySelector("#outcome-title")?.focus():d!==null&&e.querySelector(d)?.focus()}function dt(e,t,n){let r=t.summary,o=e.contains(document.activeElement)?document.activeElement?.getAttribute("data-testid"):null,i=r.seats.map(l=>{let d=t.tokens.has(l.seat),c=[];if(l.type==="open"&&r.status==="active"&&c.push(s("input",{readonly:!0,value:Ie(t.gameId,l.seat),"aria-label":a.shareLink(_(l.seat)),"data-testid":`share-${l.seat}`})),d&&l.seat===t.seat&&r.status==="active")if(l.bot===null||l.bot===void 0){let u=t.bots.filter(m=>m.games.includes(r.game));if(u.length>0){let m=s("select",{"aria-label":a.botSelect,"data-testid":"bot-select"},...u.map(f=>s("option",{value:f.name,title:f.description},f.name)));c.push(s("label",{},a.bot,m),s("button",{type:"button","data-testid":"hand-to-bot",onclick:()=>n.handOver(l.seat,m.value)},a.handToBot))}}else c.push(s("button",{type:"button","data-testid":"take-back",onclick:()=>n.takeBack(l.seat)},a.takeBack));return s("li",{"data-seat-row":l.seat,"data-seat-type":l.type??"creator",class:l.seat===t.seat?"mine":null},s("strong",{},_(l.seat)),l.name===null||l.name===void 0?null:` ${l.name}`,s("span",{class:"seat-kind"},` (${ge(l)}${d?a.yours:""})`),c.length>0?s("span",{class:"seat-controls"},...c):null)});k(e,s("h2",{id:"seats-title"},a.seats),s("ul",{class:"seat-rows"},...i)),o!=null&&(e.querySelector(`[data-testid="${o}"]`)??e.querySelector("[data-testid=hand-to-bot], [data-testid=take-back]"))?.focus()}function Xn(e,t,n,r=null){let o=n!==void 0&&(n===null||t.has(n))?n:Mt(t)[0]??null;return{gameId:e,tokens:t,seat:o,summary:null,view:null,legal:[],selection:[],busy:!1,awaited:0,bots:[],lost:r}}function Mt(e){return[...e.keys()].sort((t,n)=>t-n)}function ct(e){return e.seat===null?void 0:e.tokens.get(e.seat)}function ut(e){return e.summary!==null&&e.view!==null}function Lt(e,t){return{...e,seat:t,view:null,selection:[]}}function ea(e){if(e.seat===null)return e;let t=new Map(e.tokens);return t.delete(e.seat),{...Lt(e,null),tokens:t,lost:{reason:"refused",seat:e.seat}}}function It(e,t,n,r){let o=e.view,i=o!==null&&o.seat===n.seat&&St(o)===St(n),l=e.awaited>0&&n.version>=e.awaited;return{...e,summary:t,view:n,legal:r,selection:i?e.selection:[],...l?{busy:!1,awaited:0}:{}}}function ta(e,t){let n=e.summary;if(n===null||t.seat!==e.seat||e.view!==null&&t.view.version<e.view.version)return e;let{version:r,status:o,to_act:i}=t;return It(e,{...n,version:r,status:o,to_act:i},t.view,t.legal??[])}function Pt(e,t){let n=e.summary;return n===null||e.view===null||t.version===e.view.version?{...e,summary:t}:{...e,summary:{...t,version:n.version,status:n.status,to_act:n.to_act}}}function na(e){return e.type.startsWith("seat_")||e.type==="game_aborted"}function aa(e,t){let n=e.selection.includes(t)?e.selection.filter(r=>r!==t):[...e.selection,t];return{...e,selection:n}}function sa(e){return{...e,busy:!0,awaited:0}}function ra(e,t){let n=e.view?.version??0,r=t!==null&&n<t;return{...e,busy:r,awaited:r?t:0,selection:[]}}function ia(e,t){return{...e,bots:t}}function Hs(e){return e.summary.seats.find(t=>t.seat===e.seat)}function oa(e){return!e.busy&&e.seat!==null&&e.summary.status==="active"&&(Hs(e)?.bot??null)===null}function la(e,t,n,r){if(!ut(t))return;let{summary:o,view:i}=t,l=ye(o,t.seat),d=H(o.game)?.title??o.game;e.title.replaceChildren(`${d} · `,s("code",{class:"game-id"},t.gameId)),document.title=a.documentTitle(d),e.rulesLink.href=Q(o.game),e.status.textContent=Yn(o,i,t.seat,new Set(t.tokens.keys()),l);let c=e.root.dataset;c.version=String(i.version),c.seat=i.seat===null||i.seat===void 0?"spectator":String(i.seat),c.busy=String(t.busy),c.gameStatus=o.status,ot(e.clocks,i.clock,l,o.status==="active");let u=i.dealt===!1?Gs(t.gameId,o):nt({view:i,summary:o,legal:t.legal,selection:t.selection,live:oa(t),name:l,toggle:m=>n.toggle(m),send:m=>n.send(m)});r(u,t.busy),e.legend.childElementCount===0&&i.dealt!==!1&&k(e.legend,at(i)),Fn(e.seatNotice,t),Qn(e.outcome,t,()=>n.rematch(),l),dt(e.seatsBox,t,n)}function Gs(e,t){let n=Le(t);return t.status!=="active"||n.length===0?s("section",{class:"waiting","data-testid":"waiting"},s("p",{},a.neverDealt)):s("section",{class:"waiting","data-testid":"waiting"},s("p",{},a.waitingForPlayers(n.length)),t.open_until===null||t.open_until===void 0?null:s("p",{"data-testid":"open-until"},a.openUntil(new Date(t.open_until).toLocaleString())),s("p",{},a.dealWhenFull),s("ul",{class:"share-links"},...n.map(r=>s("li",{},s("a",{href:Ie(e,r),"data-testid":`join-link-${r}`},a.joinSeat(r))))))}function Ht(e,t){let n=Mt(t.tokens);k(e.seatSelect,...n.map(r=>s("option",{value:r,selected:r===t.seat},_(r))),s("option",{value:"spectator",selected:t.seat===null},a.spectator)),k(e.links,s("summary",{},a.seatLinks),s("ul",{},...n.map(r=>{let o=`${location.origin}/play/${t.gameId}#token=${t.tokens.get(r)??""}`;return s("li",{},`${_(r)}: `,s("input",{readonly:!0,value:o,"aria-label":a.seatLink(_(r))}))}))),e.links.hidden=n.length===0}var zs=16e3,Ns=new Set(["unauthorized","forbidden","not-your-seat"]);async function Os(e,t,n){try{let{data:r,error:o}=await $.POST("/games/{game_id}/seats/{seat}/stream-ticket",{params:{path:{game_id:e,seat:t}},headers:Y(n)});if(r!==void 0)return{kind:"ticket",ticket:r.ticket};let i=oe(o);return i!==void 0&&Ns.has(i)?{kind:"refused",code:i}:{kind:"failed"}}catch{return{kind:"failed"}}}function da(e,t,n,r,o){let i=0,l=-1,d=!1,c=0,u=null;o.addEventListener("abort",()=>u?.close());let m=()=>{c+=1,setTimeout(()=>{h()},Math.min(1e3*2**(c-1),zs))},f=()=>{r.lost(),m()};async function h(){if(o.aborted)return;let p=new URLSearchParams({after:String(i)});if(t!==null){let S=await Os(e,t,n);if(o.aborted)return;if(S.kind==="refused")return r.refused(S.code);if(S.kind==="failed")return f();p.set("ticket",S.ticket)}let T=new EventSource(`/games/${encodeURIComponent(e)}/events/stream?${p.toString()}`);u=T;let w=!1;T.onmessage=S=>{let y=JSON.parse(S.data);i=y.seq,y.type===Bt&&(d=!0),r.event(y)};let b=S=>{S.type==="state"&&(c=0),w=!0;let y=JSON.parse(S.data);l=y.version,r.state(y)};T.addEventListener("snapshot",b),T.addEventListener("state",b),T.onerror=()=>{if(T.close(),!o.aborted){if(!d&&w)return r.interrupted(),m();if(!d)return f();l<i&&r.lost()}}}h()}async function ca(e,t){let n=await zn(t),r=ce(t),o=n!==null&&r.size===0,i=Xn(t,r,Dn(t),o?{reason:"link"}:null),l=jn(e,t,o?null:n),d=Kn(l.tableHost),c=D=>{l.alert.textContent=D},u=D=>{let v=i.summary?.game,K=v===void 0?void 0:Rn(v,D.code);k(l.alert,D.text,K===void 0||v===void 0?null:" ",K===void 0||v===void 0?null:Be(v,K))},m={toggle(D){i=aa(i,D),f()},send(D){G(D)},handOver(D,v){R(()=>Hn(t,D,i.tokens.get(D),v))},takeBack(D){R(()=>Gn(t,D,i.tokens.get(D)))},rematch(){Bn(t,i.tokens,i.seat,c)}},f=()=>la(l,i,m,d),h=0,p=()=>{i.seat!==null&&(vn(t,i.seat),se(t,null),i=ea(i),Ht(l,i),C())},T=Ct(async()=>{let D=i.seat,v=await In(t,ct(i));if(i.seat!==D)return!1;switch(v.kind){case"problem":return i.seat!==null&&v.code!==void 0&&Ln.has(v.code)?p():c(v.text),!1;case"moved":return!0;case"table":return i.view!==null&&i.view.version>v.view.version||(i=It(i,v.summary,v.view,v.legal),h=Math.max(h,v.summary.version),f()),!1}}),w=Ct(async()=>{let D=await _t(t);return D.kind==="summary"&&(i=Pt(i,D.summary),h=Math.max(h,D.summary.version),f()),!1}),b=qn(l.log,()=>i.summary?.game,D=>ye(i.summary,i.seat,D)),S=null,y=!1;function C(){S?.abort();let D=new AbortController;S=D,y=!1,b.clear(),da(t,i.seat,ct(i),{event(v){b.write(v),na(v)&&v.seq>h&&w()},state(v){y=!0,i=ta(i,v),i.summary?.status==="finished"&&i.summary.outcome===null&&w(),f()},interrupted(){y=!1},lost(){y=!1,T()},refused(){p()}},D.signal)}async function G(D){let v=ct(i),K=i.view;if(v===void 0||K===null)return;i=sa(i),c(""),f();let j=await Pn(t,v,D,K.version);i=ra(i,j.kind==="accepted"?j.version:null),j.kind==="refused"&&u(j),f(),y||T()}async function R(D){c("");let v=await D();v!==null&&u(v),y||T()}l.seatSelect.addEventListener("change",()=>{let D=l.seatSelect.value==="spectator"?null:Number(l.seatSelect.value);se(t,D),i=Lt(i,D),C()}),Ht(l,i),Nn().then(D=>{i=ia(i,D),ut(i)&&dt(l.seatsBox,i,m)});let M=await _t(t);if(M.kind==="problem"){M.code!==void 0&&On.has(M.code)?Wn(e,t,M.code):c(M.text);return}i=Pt(i,M.summary),h=M.summary.version,C()}var Ws={first:"M4 3h2.5v14H4zM17 3v14L7.5 10z",previous:"M15 3v14L5 10z",next:"M5 3v14l10-7z",last:"M13.5 3H16v14h-2.5zM3 3v14l9.5-7z"};function Ve(e){return g("svg",{viewBox:"0 0 20 20",class:"icon","aria-hidden":"true",focusable:"false"},g("path",{d:Ws[e]??"",fill:"currentColor"}))}async function Fs(){return await import(new URL("./verify.js",import.meta.url).href)}async function ua(e,t){let n=ce(t),{data:r,error:o}=await $.GET("/games/{game_id}",{params:{path:{game_id:t}}});if(r===void 0){k(e,s("p",{class:"error",role:"alert"},L(o)),s("a",{href:"/"},a.lobby));return}let i=r,l=H(i.game);document.title=a.replayDocTitle(l?.title??i.game);let d=i.status==="finished",c=[...n.keys()].sort((x,A)=>x-A)[0]??null,u=i.version,m=new Map,f=0,h=s("input",{type:"range",id:"replay-slider",min:0,max:i.version,value:u,"data-testid":"replay-slider","aria-label":a.replayStep}),p=s("div",{class:"replay-outcome","data-testid":"outcome"}),T=s("section",{class:"clocks","data-testid":"clocks",hidden:!0}),w=s("div",{class:"legend-host"}),b=s("p",{class:"replay-seq","data-testid":"replay-seq","aria-live":"polite"}),S=s("p",{class:"replay-event","data-testid":"replay-event"}),y=s("select",{id:"viewer","data-testid":"viewer-select"}),C=s("div",{class:"table-host"}),G=s("p",{class:"error",role:"alert"}),R=s("p",{class:"verify-verdict","data-testid":"verify-verdict",role:"status",hidden:!d},a.verifying),M=s("button",{type:"button","data-testid":"export",disabled:!d},a.download),D=d?Array.from({length:i.players},(x,A)=>A):[...n.keys()].sort((x,A)=>x-A);k(y,...D.map(x=>s("option",{value:x,selected:x===c},_(x))),s("option",{value:"spectator",selected:c===null},a.spectator));let v=x=>{u=Math.max(0,Math.min(i.version,x)),h.value=String(u),I()};k(e,s("header",{class:"page-head"},s("nav",{},s("a",{href:"/"},a.lobby)," · ",s("a",{href:`/play/${t}`},a.table)," · ",s("a",{href:Q(i.game),"data-testid":"rules-link"},a.rulesOfThisGame)," · ",J()),s("h1",{},`${a.replay}: ${l?.title??i.game} · `,s("code",{class:"game-id"},t)),d?p:s("p",{},a.replayInProgress),s("p",{class:"hash"},a.headHash,s("code",{"data-testid":"head-hash"},i.head_hash)),R,s("p",{class:"seat-bar"},s("label",{for:"viewer"},a.viewAs),y," ",M),G),s("section",{class:"replay-controls","aria-label":a.stepThrough},s("div",{class:"replay-buttons"},s("button",{type:"button",class:"icon-button","data-testid":"replay-first","aria-label":a.firstStep,onclick:()=>v(0)},Ve("first")),s("button",{type:"button",class:"icon-button","data-testid":"replay-prev","aria-label":a.previousStep,onclick:()=>v(u-1)},Ve("previous")),h,s("button",{type:"button",class:"icon-button","data-testid":"replay-next","aria-label":a.nextStep,onclick:()=>v(u+1)},Ve("next")),s("button",{type:"button",class:"icon-button","data-testid":"replay-last","aria-label":a.lastStep,onclick:()=>v(i.version)},Ve("last"))),b,S),s("main",{},T,C,w)),h.addEventListener("input",()=>v(Number(h.value))),document.addEventListener("keydown",x=>{let A=x.target;if(A instanceof HTMLSelectElement||A instanceof HTMLInputElement)return;let O={ArrowLeft:u-1,ArrowRight:u+1,Home:0,End:i.version}[x.key];O!==void 0&&(x.preventDefault(),v(O))}),y.addEventListener("change",()=>{c=y.value==="spectator"?null:Number(y.value),ue().then(I)}),M.addEventListener("click",()=>{K()});async function K(){let{data:x,error:A}=await $.GET("/games/{game_id}/export",{params:{path:{game_id:t}},parseAs:"blob"});if(x===void 0){G.textContent=L(A);return}let N=s("a",{href:URL.createObjectURL(x),download:`${t}.jsonl`});document.body.append(N),N.click(),N.remove()}function j(){return c===null?void 0:n.get(c)}async function ue(){let{data:x}=await $.GET("/games/{game_id}/events",{params:{path:{game_id:t},query:{after:0}},headers:Y(j())});m=new Map((x?.events??[]).map(A=>[A.seq,A]))}async function I(){f+=1;let x=f,A=u,{data:N,error:O}=await $.GET("/games/{game_id}/replay/{seq}",{params:{path:{game_id:t,seq:A},query:d&&c!==null?{as:c}:{}},headers:Y(j())});if(x!==f)return;if(b.textContent=a.replayStepOf(A,i.version),e.dataset.seq=String(A),N===void 0){G.textContent=L(O);return}G.textContent="";let E=m.get(A),fe=ye(i,c);S.textContent=A===0?a.beforeFirst:E===void 0?a.hiddenEvent:it(i.game,E,fe),pt(N),ot(T,N.clock,fe,!1),w.childElementCount===0&&k(w,at(N)),d&&A===i.version&&ze(N)}function ze(x){let A=lt(i,x,c,ye(i,c));k(p,s("p",{class:"replay-headline","data-testid":"outcome-headline"},A.headline),A.why===null?null:s("p",{},A.why,A.section===void 0?null:" ",A.section===void 0?null:Be(i.game,A.section)),A.figures===null?null:s("p",{},A.figures))}function pt(x){k(C,nt({view:x,summary:i,legal:[],selection:[],live:!1,name:ye(i,c),toggle:()=>{},send:()=>{}}))}async function re(){let x=(fe,_e,W)=>{R.dataset.ok=String(fe),R.dataset.seq=_e===null?"":String(_e),R.classList.toggle("bad",!fe),R.textContent=W},{data:A}=await $.GET("/games/{game_id}/export",{params:{path:{game_id:t}},parseAs:"arrayBuffer"});if(A===void 0){x(!1,null,a.verifyUnavailable);return}let{verifyExport:N}=await Fs(),O=At(t);R.dataset.receipts=String(O.length);let E=await N(new Uint8Array(A),{head:i.head_hash,receipts:O});E.problem===null?x(!0,null,a.verifiedOk(E.botMovesNotRerun)+a.receiptsHeld(O.length)):x(!1,E.problem.seq,a.verifyFailed(E.problem.seq,E.problem.code))}await ue(),await I(),d&&await re()}var ha=`# Black Spy: rule reference

Game: *Black Spy*, Alan R. Moon. Avalon Hill / Leisure Time Games 1981. Re-released in German as *Gespenster* (Hexagames 1990, Ali Baba Spieleclub 2011). New edition by Z-Man Games (© 2012 F2Z Entertainment; released 2013). German edition of that new version by ABACUSSPIELE, 2016 (Art.-Nr. 28161).

Target ruleset: the **modern edition** (Z-Man 2012/2013 = ABACUSSPIELE 2016). Its rules differ from the 1981 original in several places; Appendix A lists those differences as an optional "classic" preset.

This page is the rule reference of this project: the engine's game \`black-spy\` implements it,
and the code and tests cite it by number.

How to read and cite it:

- **§n.m** is a numbered rule (§5.2 is the following rule). **§10.n** is interpretation n of
  §10: each states what we chose and why. **Appendix A** is the 1981 ruleset.
- **Test vector n** is a worked example of §9 with its exact expected outcome. Every one is a
  test in \`tests/core/black_spy/test_vectors.py\`.
- Outside the game's own package and tests, name the game: "Black Spy §5.2", "Black Spy
  §10.9". \`tests/test_rule_citations.py\` fails on a citation this page lacks.

**How the engine plays it.** The default ruleset is the modern edition (§1-§7) with the
interpretations of §10. Options at creation: \`no_good_spies\` (§8.1) and the \`classic\` preset
(Appendix A, the 1981 rules); \`deal\` fixes the first dealer and the first deal's hands for
puzzles and tests. The five variants whose text we do not have (§8.2-§8.6) are refused at
creation with the error \`unsupported-variant\`, which names the variant: we never invent their
rules. Passing is simultaneous: no seat sees what it receives before every seat has passed
(§3.4, §10.14). The commands are \`pass_cards {cards}\` (three cards) and \`play_card {card}\`;
cards are written \`"<colour>-<rank>"\`, e.g. \`"red-1"\`, \`"black-7"\` (colours blue, yellow, red,
green, black; ranks 1-11). The six black 7s all read \`"black-7"\`: which of them was played first
is the play order of the trick (§1.7, §5.5). A seat's view shows the tricks taken in the current
deal as public history (§5.9, §10.8).

Legend:
- **[S]**: stated by at least one source (IDs listed in §0).
- **[S×n]**: stated consistently by n independent sources.
- **[I]**: our interpretation where the sources say nothing or disagree. All [I] items are collected again in §10.
- **[UNRESOLVED]**: no rule text was found. The engine must not treat it as known.

---

## 0. Sources

| ID | Source | What it covers | Reliability |
|----|--------|----------------|-------------|
| S0 | German summary of the ABACUSSPIELE 2016 rulebook (pp. 2–6) | Whole modern base game, plus the names of the 6 variants | High for the base game. It is a paraphrase, not the rulebook text. Variants appear by name only. |
| S1 | https://www.ultraboardgames.com/black-spy/game-rules.php | English transcription of the modern (Z-Man) rulebook. **Only its first part was available to us:** components, card names/ranks, first dealer, deal, pass cycle | High for what it covers |
| S2 | https://gravopedia.gravon.de/index.php/Black_Spy | English text of the **1981** rules: deck, deal, pass (always left), first lead (dealer's left; no black lead), follow colour-or-rank, 200 points | High for the 1981 rules only |
| S3 | https://www.reich-der-spiele.de/kritiken/black-spy (review of the 2016 Abacus edition) | The red-1 holder leads but **need not play the red 1**; black-spy tie rule; end threshold depends on player count; "the rulebook offers a few variants" | Medium-high |
| S4 | https://reduxo.de/spiel/black-spy.24658.html (review, modern edition) | Pass alternates each deal; passing is simultaneous; received cards may be looked at only once everyone has them; the red-1 holder starts. **Gives 4-player order as left, across, right**, which contradicts S0 and S1 | Medium |
| S5 | http://ludorium.at/SPIELE/avalon_hill/black_spy_d0.htm | 1981 summary: pass 3 left; first lead never black; colour or number; first-played black spy wins if not beaten; 200 points; "with variant rules" | Medium (1981) |
| S6 | http://ludorium.at/SPIELE/avalon_hill/black_spy_2.htm (review by M. Valent) | Card names 1-Informer … 11-Director; six black spies; Gespenster rules identical to Black Spy 1981 "except some additional rules omitted" | Medium |
| S7 | http://www.spieletest.at/gesellschaftsspiel/1510/Gespenster | Gespenster (= 1981 rules): black 1–6 = 1 pt, 8 = 2 … 11 = 5, six 7s at 10 each, **80 points per round** (no good spies); pass 3 left; dealer's left leads; first lead not the penalty colour; first-played 7 beats later 7s; ends past 200; "3 special variants, the second is Hearts-like: whoever takes all …" | Medium (1981/1990) |
| S8 | https://brettspiele.digital/spiele/gespenster-0 (Gespenster 2011) | Follow colour or number; several penalty 7s not beaten → the first one played counts as highest; over 200 ends the game | Medium |
| S9 | https://www.gamesworldsa.com.au/products/black-spy (Z-Man product text) | Black cards 1–5 pts, six black 7s at 10 each, **coloured 7s −5**; tie between black 7s: the first one played is highest | Medium |
| S10 | https://boardgamewikia.com/vi/news/z-man-games-to-rerelease-black-spy-and-babel-targi-and-blueprints-also-coming-from-z-man-in-2013 (copy of BGG news) | Follow "suit or rank of the card led" (otherwise any card); highest card of the led colour wins; "reaches 200 or more" at end of round ends the game | Medium |
| S11 | https://peterrustemeyer.wordpress.com/2017/08/30/angespielt-black-spy/ | Red 3 led → red cards **or any 3** may be played; a free choice only when holding neither; **no trumps**; threshold depends on player count; "Durchmarsch" (shoot the moon) exists; coloured 7s carry minus (= good) points | Medium |
| S12 | https://www.kinderspielmagazin.de/2016/12/08/black-spy | Modern edition: pass direction changes every round; red-1 holder opens the first trick; tricks are stored face down | Medium |
| S13 | German Wikipedia, article "Black Spy" (2024) | Material: 4×11 coloured cards, 16 black cards (1–11 plus five 7s), score pad | Medium |
| S14 | http://ftp.informatik.rwth-aachen.de/keirat/txt/G/Gespenst.html (Gespenster test) | All players pass 3 cards left simultaneously; a penalty-colour 7 played first beats later 7s unless a higher penalty-colour card falls; reaching 200 after a scoring ends the game | Medium (1990) |

What no source gave us: the full text of the modern rulebook's pp. 4–6 (the scoring details
and the variants); the English transcription S1 breaks off inside the pass section, and the other
pages are summaries or reviews. We know of no other digital implementation of Black Spy or
Gespenster.

---

## 1. Components and deck (60 cards)

1.1 **Colours.** There are five: blue, yellow, red, green (the four "coloured" suits) and black. [S×4: S0, S1, S2, S13]

1.2 **Coloured cards.** Each of the four colours has exactly one card of each rank 1–11, for 44 cards. [S×4]

1.3 **Black cards.** There are 16: one each of ranks 1–11, plus **five extra black 7s**. That makes six black 7s ("black spies") in total. [S×6: S0, S1, S2, S6, S9, S13]

1.4 **Total:** 44 + 16 = 60 cards. [S]

1.5 **Rank order and names.** Rank 1 is lowest and 11 is highest. The names are the same in every colour. [S×3: S1, S2, S6]

| Rank | English name (Z-Man / Avalon Hill) |
|---|---|
| 1 | Informer (German edition: "Informant") |
| 2 | Interrogator |
| 3 | Infiltrator |
| 4 | Saboteur |
| 5 | Assassin |
| 6 | Agent |
| 7 | Spy |
| 8 | Double Agent |
| 9 | Code Breaker |
| 10 | Deputy Director |
| 11 | Director (German: "Direktor") |

Names have no rules effect. Only rank and colour matter.

1.6 The **red 1 carries a star**. It marks the card whose holder leads the first trick (§4.1). [S0]

1.7 **Engine identity [I].** The six black 7s are indistinguishable in the physical game. Give each a unique internal ID (e.g. \`K7#1..#6\`) so the engine can track play order. Rules only ever compare colour, rank and play order. This engine writes every black 7 as \`"black-7"\` and tells them apart by their play order in the trick, which serves the same purpose with no extra notation.

1.8 A score pad is included. It has no rules effect.

---

## 2. Seating, first dealer, dealing

2.1 Play and dealing proceed **clockwise**, which the rules call "to the left". [S×2: S1, S2] Seat players 0..n-1 clockwise. Then **left neighbour = (i+1) mod n**, **right neighbour = (i−1) mod n**, and **across (4 players) = (i+2) mod 4**. [I: direct mapping of "clockwise (going left)"]

2.2 **First dealer.** Each player draws a card and the highest card deals. Tied players draw again until one player alone has the highest card. [S×2: S1, S2] "Highest" compares rank only; colour never breaks a tie. [I]

A digital engine may replace the draw with a uniformly random choice of first dealer. This is statistically equivalent. [I]

2.3 **Deal.** The dealer shuffles and deals **all 60 cards**, one at a time, starting with the player on the dealer's left and going clockwise. [S: S1; S2, S0 for "all cards"]

| Players | Cards each | Tricks per deal |
|---|---|---|
| 3 | 20 | 20 |
| 4 | 15 | 15 |
| 5 | 12 | 12 |
| 6 | 10 | 10 |

[S×4: S0, S1, S2, S4]

2.4 **Next dealer.** After each deal the deal passes clockwise: the player on the previous dealer's left deals next. [S×3: S0, S1, S2]

2.5 In the modern rules the dealer has no other role. The first lead is fixed by the red 1 (§4.1). The dealer matters only for the dealing order and for the classic preset (Appendix A). [S0, S3, S4, S12]

---

## 3. The pass (every deal)

3.1 **Every deal, before play,** each player chooses **exactly 3 cards** from their hand and passes them face down to one other player. [S×5: S0, S1, S2, S4, S7]

3.2 **Any 3 cards** may be passed, including black cards, the black 7s and the red 1. [S×2: S1 "any three of his cards", S2 "he may pass any three cards"] If the red 1 is passed, the receiver leads the first trick (§4.1).

3.3 **Direction cycle** (modern rules). Deal number k counts from 0 for the first deal of the game. [S×2: S0, S1; S4/S12 confirm that the direction alternates]

- **3, 5 or 6 players:** left, right, left, right, … So k even → left neighbour; k odd → right neighbour.
- **4 players:** left, right, across, left, right, across, … So k mod 3 = 0 → left; 1 → right; 2 → across.
- **There is never a no-pass ("hold") round.** No source mentions one, unlike Hearts. [S by silence; S1 lists the cycles explicitly with no hold step]

Conflict: S4 gives the 4-player order as left, **across**, right. S0 (the rulebook summary) and S1 (the English rulebook transcription) both say left, **right**, across. We follow S0 and S1. [I; see §10]

3.4 **Blind pass.** A player may not look at the cards passed to them until they have passed their own three. [S×3: S0, S1, S2]

S4 adds that passing is simultaneous and that the received cards are looked at once everyone has received theirs. [S4, S14]

Engine implementation:
1. Collect a committed 3-card selection from every player. Nobody sees any incoming cards yet.
2. Transfer all selections at the same moment.
3. Reveal each player's received cards to that player only.

A player can therefore never pass on a card they received in the same deal. [I: direct consequence of the rule]

3.5 Passed cards are private: only the passer and the receiver know them. [I: face-down pass]

---

## 4. The first trick of each deal

4.1 **First leader.** After the pass, whoever holds the **red 1 (with the star)** leads the first trick. [S×4: S0, S3, S4, S12]

4.2 **The red 1 need not be led.** The leader may lead any legal card. [S3: "beginnt das Spiel, muss aber diese Karte nicht ausspielen"]

4.3 **No black lead in trick 1.** The card led to the first trick may not be black. [S×4: S0, S2, S5, S7]

The restriction can always be met: the leader holds the red 1, a non-black card. So the legal leads for trick 1 are all non-black cards in the leader's hand.

4.4 **Followers in trick 1 follow the normal rules (§5.2).** Every source words the restriction as applying to the card **led**: "angespielt" / "led" / "ausgespielt". So in trick 1 a follower may still play a black card when:
- it matches the led rank (e.g. a red 4 is led and the follower plays the black 4), or
- the follower holds neither the led colour nor the led rank.

There is no Hearts-style "no penalty cards on the first trick" rule. [I: literal reading of S0, S2, S5, S7; no source extends the ban to followers]

4.5 **No "breaking" rule.** From trick 2 onward, black may be led at any time. No source restricts it. [I by silence]

---

## 5. Trick play

5.1 **Turn order.** The leader plays one card face up. Then each other player in clockwise order plays exactly one card. [S×2: S2, S12]

5.2 **Following (legal-move rule).** Let L be the **led card**, the first card of the trick (not the previous card). [S0: "wie die eröffnende Karte"; S10: "of the card led"]

- If the player holds any card whose **colour = colour(L)** or whose **rank = rank(L)**, they must play one of those cards.
- The player may **choose freely** between the two kinds. A player holding cards of the led colour may still play a same-rank card of another colour, and vice versa. [S×3: S0, S11 "rote Karten oder beliebige 3er", S2, S10]
- Only if the player holds **neither** the led colour nor the led rank may they play **any** card. [S×3]
- Formally: \`legal = {c ∈ hand : c.colour == L.colour or c.rank == L.rank}\`; if \`legal\` is empty, \`legal = hand\`.

5.3 **Black is an ordinary colour.** There are **no trumps**. [S×2: S0, S11] A black card can win a trick only when black was led.

5.4 **Trick winner.**
- Only cards of the **led colour** can win.
- Among them, the **highest rank** wins.
- The led card is always of the led colour, so every trick has a winner. [S×6: S0, S3, S5, S7, S10, S11]

5.5 **Equal-rank tie (only black 7s can tie).**
- Each coloured suit has unique ranks. The only duplicates in the deck are the six black 7s, so a tie can only occur in a **black-led** trick whose highest black card is a 7.
- In that case the **black 7 played earliest** (first in play order within the trick) wins. [S×7: S0, S3, S5, S7, S8, S9, S14]
- A black 8–11 in the same trick beats all black 7s as usual. [S0 "wenn der Spion die höchste schwarze Karte bleibt"; S14 "sofern keine weiße Karte mit höherem Zahlenwert gespielt wurde"]
- If the black 7 is the led card, the leader wins any tie with later black 7s.
- Black 7s played into a non-black-led trick (e.g. following rank on a blue 7) never win. The blue 7 wins unless a higher blue card is played. [S: §5.3, §5.4]
- Generic engine rule: sort the led-colour cards by (rank descending, play index ascending) and take the first.

5.6 **Collecting the trick.** The winner takes all cards of the trick **face down** into their own pile. The winner leads the next trick. [S×4: S0, S3, S7, S12]

5.7 **End of deal.** The deal ends when all hands are empty, after 60/n tricks. [S4; follows from §2.3]

5.8 **Later leads (tricks 2+).** The leader may lead any card in hand, black included. [I; see §4.5]

5.9 **Information visibility [I].**
- Physical tricks are face down once taken, but every card was seen when played.
- The engine should treat the sequence of played cards as public history.
- Whether the UI lets players re-inspect earlier tricks is a UI/house-rule option; the rules say only "face down".
- Suggested default: the last completed trick stays viewable until the next card is played; earlier tricks are hidden from the UI.

---

## 6. Scoring each deal (modern base game)

6.1 Each player scores only the cards in the tricks they took. [S×4]

6.2 **Card values:**

| Card | Points (bad = positive) | Count | Subtotal |
|---|---|---|---|
| Black 1, 2, 3, 4, 5, 6 | 1 each | 6 | 6 |
| Black 7 ("black spy") | 10 each | 6 | 60 |
| Black 8 | 2 | 1 | 2 |
| Black 9 | 3 | 1 | 3 |
| Black 10 | 4 | 1 | 4 |
| Black 11 | 5 | 1 | 5 |
| **All black cards** | | 16 | **80** |
| Blue / yellow / red / green 7 ("good spies") | **−5 each** | 4 | **−20** |
| All other coloured cards | 0 | 40 | 0 |
| **Net per deal** | | | **60** |

[S0 gives the values and the "60 per round" total. S7 confirms the black values and the 80 black total. S9 and S11 confirm the −5 for coloured 7s.]

6.3 **Negative scores are allowed,** both per deal and cumulatively. [S0: "man darf auch unter 0 fallen"]

6.4 **Shooting the moon (taking all 16 black cards).** If one player has taken all 16 black cards at the end of a deal: [S0]
- that player scores **0** for black cards;
- **every other player scores 60** for the deal;
- **coloured 7s still count −5 for whoever took them**, the moon-shooter included.

So the shooter's deal score = −5 × (coloured 7s the shooter took). Each other player's deal score = 60 − 5 × (coloured 7s that player took).
- This is automatic: no announcement is needed or allowed. [I: no source mentions a declaration]
- S11 calls it "Durchmarsch". In the 1981/1990 rules it was only a variant (S7: "the second variant is Hearts-like"). In the modern edition it is part of the base rules. [S0, S11]

6.5 **Checksum for tests [I, arithmetic]:**
- In a normal deal, the deal scores of all players sum to exactly **60**.
- In a moon deal they sum to **60·(n−1) − 20**.

6.6 Add each deal score to the player's running total. [S]

---

## 7. End of game and winner

7.1 **Check for game end only after a deal has been scored.** [S×3: S0, S2, S10 "at the end of a round"]

7.2 **Thresholds (modern rules):**

| Players | Game ends when any total is |
|---|---|
| 3 | ≥ 200 |
| 4 | ≥ 150 |
| 5 | ≥ 120 |
| 6 | ≥ 100 |

[S0; S3 and S11 confirm that the threshold depends on player count]

The comparison is **≥ ("reaches")**. S0 ("erreicht"), S2 ("gets 200 or more"), S10 ("reaches 200 or more") and S14 ("erreicht") say reach. S7, S8 and S11 ("überschreitet", "durchbricht", i.e. exceeds) disagree; see §10. The existence of the "Punkte reduzieren beim exakten Endwert" variant also implies that hitting the value exactly ends the base game.

7.3 **Winner: the player with the lowest total.** [S×all]

7.4 **Tied lowest total:** no source covers this. The tied players **share the victory**. [I]

7.5 The player who triggered the end is not otherwise penalised or excluded. They may even win, if their total is still the lowest, which is possible when every total is high. [I by silence]

---

## 8. Variants (modern rulebook pp. 5–6)

S0 names six variants, and S3 confirms that the rulebook "offers a few variants". **Only the first could be specified from the available sources.** The full text of the other five was not available to us:
- the English Z-Man rulebook transcription (S1) breaks off before the variants;
- the 1981 variant texts (S5, S7) are only alluded to;
- we know of no other implementation that has them.

Each variant is an independent boolean option. This engine offers §8.1; the options of §8.2–§8.6 exist only to be **refused** at creation (\`unsupported-variant\`, naming the variant) until the rulebook text is obtained.

### 8.1 "Ohne gute Spione" (No Good Spies): fully specified [S0 + arithmetic]
- Coloured 7s score **0** instead of −5. All other values are unchanged.
- Each deal is then worth **80** points: 6 + 60 + 14 from black cards only. [S0: "80 Punkte je Runde"]
- This matches the original 1981/1990 scoring, where there were no good spies and 80 points per round. [S7]
- Shooting the moon under this variant: the shooter scores 0 and each other player scores **80**. [I: the base game gives the others the full round total of 60; the variant's round total is 80. The alternative, keeping 60, is listed in §10.]
- Checksums: normal deal sums to 80; moon deal sums to 80·(n−1).

### 8.2 "Gefangen nehmen oder freilassen" (Capture or Release): [UNRESOLVED]
- The name alone is known. [S0] No source describes the mechanism.
- It probably concerns spies, given the capture/release wording and the theme. It may be a choice a trick winner makes about spy cards in a won trick. **This is speculation and must not be implemented as rules.**
- Where it would fit in an engine: a post-trick "winner decision" step, able to move or neutralise specific cards of the won trick before they enter the scoring pile.

### 8.3 "Der Maulwurf" (The Mole): [UNRESOLVED]
- S0's only description is "Kartenauswahl nach Punktestand": card selection according to the current score standings.
- Most plausibly it modifies the card exchange (§3) so that who selects or passes which cards depends on the running totals. **The exact procedure is unknown.**
- Where it would fit in an engine: replace the pass phase with a score-ordered selection phase that can read the cumulative scores.

### 8.4 "Farbe ansagen" (Call a Colour): [UNRESOLVED]
- The name alone is known. [S0] Some player announces a colour, probably the leader or the dealer. Its effect (on following, on trick winning, or on scoring) is unknown.
- Where it would fit in an engine: a declaration action, attached either to a trick lead or to the start of a deal, whose value legal-move and winner functions can read.

### 8.5 "Dem Rang folgen" (Follow the Rank): [UNRESOLVED]
- The name alone is known. [S0] It almost certainly changes the following rule of §5.2 (e.g. rank takes precedence over colour, or rank-following changes the winning colour). The exact rule is unknown.
- Where it would fit in an engine: make \`legal_moves()\` and \`trick_winner()\` pluggable strategies.

### 8.6 "Punkte reduzieren" (Reduce Points): [UNRESOLVED in magnitude]
- S0: "'Punkte reduzieren' beim exakten Endwert". A player whose running total lands **exactly** on the end threshold for the player count has their total reduced, and presumably the game does not end on that account.
- **By how much** (e.g. to half, to 0, or by a fixed amount) is unknown.
- Hearts has a similar house rule: exactly 100 resets to 50 or 0. Black Spy's actual figure may differ.
- If it is ever implemented, apply the reduction to each affected player **before** the §7 end check. [I: otherwise the variant could never take effect]

---

## 9. Reference pseudocode (modern base game)

\`\`\`text
THRESHOLD = {3:200, 4:150, 5:120, 6:100}

deck():
  for colour in [blue, yellow, red, green, black]:
    for r in 1..11: card(colour, r)
  repeat 5: card(black, 7)          # six black 7s in total

pass_offset(n, k):                  # k = 0-based deal number
  if n == 4: return [+1, -1, +2][k mod 3]
  else:      return [+1, -1][k mod 2]       # +1 = left (clockwise)

legal_moves(hand, trick, trick_no):
  if trick is empty:                # leading
    if trick_no == 1: return {c in hand : c.colour != black}   # never empty: red 1 held
    return hand
  L = trick[0]
  m = {c in hand : c.colour == L.colour or c.rank == L.rank}
  return m if m nonempty else hand

trick_winner(trick):                # list of (player, card) in play order
  L = trick[0].card
  cands = [(i,p,c) for i,(p,c) in enumerate(trick) if c.colour == L.colour]
  return player of min(cands, key = (-c.rank, i))   # earliest black 7 wins ties

deal_score(piles, good_spies=True):
  for each player p:
    black = sum(value(c) for c in piles[p] if c.colour == black)
         # value: 1-6 -> 1; 7 -> 10; 8 -> 2; 9 -> 3; 10 -> 4; 11 -> 5
    good  = -5 * count(c in piles[p] : c.rank == 7 and c.colour != black) if good_spies else 0
    raw[p] = (black, good)
  total = 60 if good_spies else 80          # [I] moon payout = round total
  if some p* holds all 16 black cards:
    score[p*] = 0 + raw[p*].good
    score[q]  = total + raw[q].good  for q != p*
  else:
    score[p]  = raw[p].black + raw[p].good
\`\`\`

Worked test vectors:
- **Test vector 1. Follow choice.** Red 4 led; follower holds {red 9, black 4, green 2} → legal {red 9, black 4}.
- **Test vector 2. Void in both.** Red 4 led; follower holds {green 2, black 7} → legal {green 2, black 7}.
- **Test vector 3. First-trick lead.** Leader holds {red 1, black 2, blue 5} → legal leads {red 1, blue 5}.
- **Test vector 4. First-trick follow.** Red 1 led; follower holds {black 1, yellow 3} → legal {black 1} (same rank). Allowed under §4.4.
- **Test vector 5. Tie.** P1 leads black 7, P2 black 7, P3 green 7, P4 black 5 → P1 wins. Value 10 + 10 − 5 + 1 = 16.
- **Test vector 6. Tie, not led.** P1 leads black 3, P2 black 7, P3 black 7, P4 yellow 3 → P2 wins (first black 7). Value 1 + 10 + 10 + 0 = 21.
- **Test vector 7. Higher black beats 7s.** P1 leads black 3, P2 black 7, P3 black 7, P4 black 9 → P4 wins. Value 1 + 10 + 10 + 3 = 24.
- **Test vector 8. No trumps.** P1 leads yellow 7, P2 black 7 (same rank), P3 yellow 2 → P1 wins. Value −5 + 10 + 0 = 5.
- **Test vector 9. Moon, 4 players.** P2 took all 16 black cards and the blue 7; P1 took the red and green 7s; P3 took the yellow 7. Scores: P2 = −5, P1 = 50, P3 = 55, P4 = 60. Sum 160 = 60·3 − 20. ✓
- **Test vector 10. Pass cycle, 4 players.** Deals 1..6 → left, right, across, left, right, across. 5 players: deals 1..3 → left, right, left.

---

## 10. Interpretations we chose (sources silent or conflicting)

Each entry gives the choice, then why.

10.1 **4-player pass order is left, right, across** (not left, across, right). Why: S0 (rulebook summary) and S1 (English rulebook transcription) agree. Only S4, a review, says otherwise.

10.2 **There is no pass-free ("hold") deal in any player count.** Why: S1 lists the cycles with no hold step; no source mentions one.

10.3 **3, 5 and 6 players pass alternately left and right, with no across.** Why: S1 and S0 give the across step for 4 players only.

10.4 **Left = clockwise next seat.** Why: S1 and S2 say "clockwise (going left)".

10.5 **The trick-1 black ban applies only to the led card.** Followers may play black via rank-following or when void. Why: every source says "led" / "angespielt". Extending the ban to followers would sometimes leave a follower with no legal card, and no source addresses that.

10.6 **The red 1 need not be led.** Why: S3 states this explicitly.

10.7 **No "black must be broken" restriction after trick 1.** Why: no source has one; the Hearts analogy is limited to the first trick.

10.8 **The engine treats played cards as public history; re-viewing taken tricks is a UI option.** Why: the rules only say that tricks are stored face down, and every card was seen when played. A view shows the current trick and the tricks taken in the current deal; a client may show fewer.

10.9 **Shooting the moon is automatic, needs no declaration, and pays the round total to each opponent.** That is 60 in the base game and 80 under "Ohne gute Spione". Why: S0 ties the 60 to "60 per round". Alternative: always 60. This engine pays 80 under §8.1 and offers no option for 60 (Q2 below).

10.10 **Coloured 7s still count for everyone during a moon deal**, the shooter included. Why: S0 says "bunte Spione zählen trotzdem −5" without limiting it to particular players.

10.11 **The game ends at ≥ threshold, checked only after a deal's scoring.** Why: the rulebook summary (S0), the 1981 English text (S2), the BGG description (S10) and S14 all say "reach" / "or more". S7, S8 and S11 say "exceed", but they are looser reviews, two of them of Gespenster.

10.12 **A tied lowest total at game end is a shared win.** Why: no source addresses ties. Common default.

10.13 **The first-dealer draw compares rank only, ties redraw, and random choice is an acceptable digital substitute.** Why: S1 and S2 say "highest card", with no colour order defined. This engine draws the first dealer uniformly at random and records it in the first event.

10.14 **Passing is a simultaneous commit, and received cards are revealed after all players have committed.** Why: S0, S1 and S2 say no looking before passing. S4 and S14 say it happens simultaneously.

10.15 **Variants 8.2–8.6 are not implemented as rules**; asking for one at creation is refused with \`unsupported-variant\`. Why: their text is unavailable, and inventing mechanics would not be faithful.

### Open questions (§10 Q1-Q5), for whoever can read the printed rulebook (ABACUSSPIELE 2016 pp. 4–6, or the Z-Man 2012 English rulebook)
- Q1: Full text of "Gefangen nehmen oder freilassen", "Der Maulwurf", "Farbe ansagen", "Dem Rang folgen" and "Punkte reduzieren" (including the reduction amount).
- Q2: The moon payout under "Ohne gute Spione": 60 or 80?
- Q3: Tie-breaking for the overall winner: any rule at all?
- Q4: Confirm "reach" (≥) versus "exceed" (>) for the end threshold.
- Q5: Confirm the 4-player pass order: left, right, across.

---

## Appendix A: differences in the original 1981 rules (optional "classic" preset)

These come from the 1981 English text (S2) and the 1981/1990 summaries (S5, S6, S7, S8, S14). According to S6, Gespenster has the same rules as Black Spy 1981, minus some extra rules.

| Rule | Modern (Z-Man 2012 / Abacus 2016) | Classic (Avalon Hill 1981 / Gespenster 1990) |
|---|---|---|
| Pass direction | Alternating (4 players: left, right, across) | **Always left** (S2, S5, S7, S14) |
| First leader of each deal | Holder of the red 1 | **Player to the dealer's left** (S2, S7) |
| First-trick lead | Not black | Not black (S2, S5, S7) |
| Coloured 7s | −5 each (60 per deal) | **0**: no good spies, **80 per deal** (S7; S6 for identical rules) |
| Shooting the moon | Base rule (0 for the shooter, 60 to others) | Only one of 3 optional variants; details unknown (S7) |
| End threshold | 200/150/120/100 by player count | **200 for all player counts** (S2, S5; S7 and S8 say "exceeds 200") |
| Follow rule, trick winner, 7-tie | Same | Same (S2, S5, S7, S8, S14) |

Classic-mode edge case [I]: the leader of trick 1 (dealer's left) might hold only black cards. This is possible with 16 black cards and 10-card hands. If so, that player may lead a black card, because no legal alternative exists. The sources are silent on this.
`;var pa=`# Deck of Spies: rule reference

*Deck of Spies* is a solo deck-building game for one standard 52-card deck (no jokers) by James
Newman, 2021. This page is the rule reference of this project: the engine's game
\`deck-of-spies\` implements it, and the code and tests cite it by number.

How to read and cite it:

- **§n.m** is a numbered rule (§4.2 is the necessity rule). Rules use normative wording
  ("must", "may").
- **I-n** is an interpretation we chose where the sources are silent or ambiguous (§12). Each
  states the reading, the alternative and why.
- **Wn** is a worked example with its exact expected outcome (§11). Every one is a test in
  \`tests/core/deck_of_spies/test_worked_examples.py\`.
- Outside the game's own package and tests, name the game: "Deck of Spies §4.2", "Deck of
  Spies I-6". \`tests/test_rule_citations.py\` fails on a citation this page lacks.

**How the engine plays it.** Every rule below is implemented with the defaults of §12. The flags
\`strict_necessity\` (default true, I-15), \`ace_counts_in_necessity\` (default true, I-2) and
\`retire_multiple_ranks\` (default false, I-6) are game options chosen at creation and recorded in
the game's first event, so a game is always replayed under the rules it was played with. A
counter or recruit and its optional retire are one command (§3, §10). The commands are
\`counter {cards, retire?}\`, \`recruit {cards, retire?}\` and \`assassinate {ace}\`; cards are written
\`"10H"\`, \`"AS"\`, \`"QC"\` (rank A, 2-10, J, Q, K; suit C, D, H, S). The option \`deal\` lays out an
explicit position for puzzles and tests. The bot benchmark of §13 is the yardstick for the bots.

---

## 0. Sources

| Id | Source | What it is |
|----|--------|------------|
| S1 | *Deck of Spies*, full rules in English (8 sections, including tips and a scoring variant) | **The primary authority for this reference.** |
| S2 | *Deck of Spies*, full rules in German („Ausführliche Regeln“), same structure | A translation of S1; compared line by line with it. |
| S3 | *Deck of Spies Rules v1.0* (3 pages), apparently the official rulebook | Only its first page was available to us; it stops in the middle of the Counter rule, and its card symbols (A, J, Q, K, ...) were lost. |
| S4 | "Game Review: Deck of Spies", mwmgameideas blog, 8 May 2023, <https://mwmgameideas.blogspot.com/2023/05/game-review-deck-of-spies.html> | A third-party review with a rules summary (its first part). |

We know of no published win rates, simulations or other digital implementations; the
benchmark of §13 is our own.

### 0.1 English (S1) vs German (S2)
**No rule discrepancies.** Every rule sentence, example, number and step order matches. Differences are only cosmetic or linguistic:
1. S2 adds a title gloss („Ein Stapel voller Spione“) and says the official rulebook is *English* („BoardGameGeek, englisch“). S2 is therefore a translation, and S1 is closer to the source.
2. German rank letters: **B** (Bube) = Jack = 11, **D** (Dame) = Queen = 12, **K** (König) = King = 13, **A** (Ass) = Ace = 1. "B–K" in S2 means "J–K" in S1. A parser of German card names must not read "B" or "D" as anything else.
3. Naming: S1 "draw discard pile" is S2 „eigener Ablagestapel“; S1 "spy discard pile" is S2 „Spion-Ablagestapel“; S1 "Retire" is S2 „In Rente schicken“; S1 "Assassinate" is S2 „Ausschalten“.
4. In the double-agent sentence, S2's „zu Karten *seiner* Farbe“ ("of its suit") has an ambiguous pronoun. It makes no difference, because the Ace must be of the spy's suit anyway.

### 0.2 Full rules (S1/S2) vs official fragment (S3) and review (S4)
1. **Building the spy deck.** S3 builds it face down and then flips the whole stack. The stated result is that the top card shows "a 5, 6 or 7". S1 stacks face-up piles directly. The order is the same either way: top = shuffled 5–7, then shuffled 8–10, then shuffled J–K at the bottom. No conflict.
2. **Counter wording.** S3 says "discard any number of cards with combined value equal to or greater than the value of the spy". The fragment ends before any "necessary" clause. S4 also summarises it as "any combination of cards equal or higher than its value". Only S1/S2 state the **necessity rule** ("every card you use must be necessary", with a worked example). We implement the necessity rule, and offer a game option to drop it (§12, I-15).
3. **Where a recruited spy goes.** S4 says recruiting "puts it in your draw deck". This is loose wording. S1/S2 say explicitly that it goes to the **draw discard pile**, and we follow S1/S2.
4. **Retire.** S4 says you can clear cards "after a counter or recruit but only in multiples of the same rank". This agrees with S1 "after", and does not settle whether several ranks may be retired in one turn (I-6). S3 says "Optionally, you may be able to retire spies from your hand in addition to your counter or recruit action". S3 calls all cards "spies", including your own.
5. **Assassinate.** S3: "If things aren't going well, you may be *forced* to assassinate." S4: "If your hand does not have enough cards to counter, an assassination is necessary, using any ace still in play … if you run out of aces … you lose." Both agree with S1: assassination is forced, not optional.
6. **Goal.** S3: "you must have more than half of the Key Spies ( , , ’s) in your deck". The blanks are the lost card symbols, presumably J, Q and K. This is the same as S1's "at least 7 of the 12".
7. **Double agent.** S4: "you can use an ace to change the other cards in your hand to its suit, still keeping value. The ace's single point still counts and the card will be used." This agrees with S1.

---

## 1. Components and notation

1.1 **Cards.** A card is (rank, suit) with rank ∈ {A, 2, …, 10, J, Q, K} and suit ∈ {♣, ♦, ♥, ♠}. All 52 cards are distinct.

1.2 **Value.** val(A) = 1; val(n) = n for 2–10; val(J) = 11; val(Q) = 12; val(K) = 13. "Same value" is the same as "same rank".

1.3 **Face cards** ("key spies") are J, Q and K: 12 cards. **Aces** ("double agents"): there is exactly **one Ace per suit**. A_s denotes the Ace of suit s.

1.4 **Zones.** Every card is in exactly one zone at all times:

| Zone | Orientation | Ordered? | Notes | In the engine's view |
|------|-------------|----------|-------|----------------------|
| \`SpyDeck\` | face up; only the top card is visible | yes (top first) | the enemy spies still to come | \`top_spy\`, \`spies_left\`, \`unseen_spies\` (which, never in what order) |
| \`SpyDiscard\` | face down | no (order irrelevant) | countered spies, assassinated spies, retired cards | \`spy_discard\`, \`spy_discard_count\` |
| \`DrawDeck\` | face down | yes (hidden order) | your deck | \`draw_deck_count\`, \`draw_deck_cards\` (composition, never order) |
| \`DrawDiscard\` | face up | no (it is shuffled before reuse) | used cards and recruited spies | \`draw_discard\` |
| \`Hand\` | private to the player | no | at most 5 cards | \`hand\`, \`hand_count\`, \`hand_total\` |
| \`Removed\` | out of the game | no | only Aces sacrificed by assassination | \`removed\` |

The view's \`owned_faces\` is the count of §9.2; a spectator sees the hand, its total, the draw
deck's composition and \`owned_faces\` only once the game is over (§10.1).

1.5 **Owned cards** = \`Hand\` ∪ \`DrawDeck\` ∪ \`DrawDiscard\` ("your deck").

1.6 For a set of cards S, Σ(S) is the sum of the values in S. min(S) is the smallest value in S.

---

## 2. Setup

2.1 Split the 52 cards into four groups: G0 = all A–4 (16 cards), G1 = all 5–7 (12), G2 = all 8–10 (12), G3 = all J–K (12). Shuffle each group on its own.

2.2 \`SpyDeck\` (top to bottom) = G1 (shuffled), then G2 (shuffled), then G3 (shuffled). 36 spies in total. Only the top card is visible.

2.3 \`DrawDeck\` = G0 (shuffled). \`DrawDiscard\`, \`SpyDiscard\`, \`Removed\` and \`Hand\` start empty.

2.4 Draw 5 cards from \`DrawDeck\` into \`Hand\`.

2.5 The game lasts exactly 36 turns, one spy per turn, unless it is lost earlier (§9.3).

---

## 3. Turn structure (normative order)

For each turn, while \`SpyDeck\` is not empty:

3.1 **Identify the spy.** X = top card of \`SpyDeck\`, v = val(X), s = suit(X).

3.2 **Mode test.** If Σ(\`Hand\`) < v, the player **must assassinate** (§6). If Σ(\`Hand\`) ≥ v, the player **must counter (§4) or recruit (§5)**, whichever they choose. Assassination is **not** allowed in that case.
   - If Σ(Hand) ≥ v, at least one legal counter always exists. Proof: start from the whole hand and drop cards while the sum stays ≥ v; the set you end with is legal. So the player is never stuck.
   - Recruiting is never required, even when it is possible.

3.3 **Optional retire (§7).** This step exists only in a turn where the player countered or recruited. It may be used at most once in the turn.

3.4 **End of turn: refill (§8).** Draw up to 5 cards. This happens after **every** turn, including a turn with an assassination (I-5).

3.5 **Game end check.** If \`SpyDeck\` is now empty, the game ends: score it as in §9.

An engine should treat steps 3.2 and 3.3 as **one atomic move** \`(type, S, R)\`, where type ∈ {counter, recruit}, S ⊆ Hand is the set of cards used, and R ⊆ Hand∖S is the retired set (possibly empty). An assassination turn is the move \`(assassinate, a)\`, where a is the chosen Ace. See §10.

---

## 4. Counter

4.1 Choose a non-empty set S ⊆ \`Hand\`. Cards of any suit may be used.

4.2 **Legality (the necessity rule).** S is a legal counter against a spy of value v if and only if:

   **Σ(S) ≥ v  and, for every card c ∈ S, Σ(S) − val(c) < v.**

   The second condition says every card is individually necessary: the set is *inclusion-minimal*. It is equivalent to

   **Σ(S) ≥ v  and  Σ(S) − min(S) < v.**

   Overpaying with few cards is allowed (a single K against a 5). Adding an unnecessary card is not. The set does **not** have to have the smallest possible sum or the fewest cards. The rulebook example allows 3+4 against a 5 even though 3+2 is exact.

4.3 **Effect.** The spy X goes to \`SpyDiscard\`. The cards in S go to \`DrawDiscard\`.

4.4 Aces have no special role in a counter. An Ace in S must pass the necessity test like any other card. The Ace exemption of §5.3 applies to recruiting only.

---

## 5. Recruit

5.1 Choose a non-empty set S ⊆ \`Hand\`.

5.2 **Plain recruit (A_s ∉ S).** S is legal if and only if every card in S has suit s, Σ(S) ≥ v, and Σ(S) − min(S) < v. That is, it must be a legal counter made only of cards of the spy's suit.

5.3 **Double-agent recruit (A_s ∈ S).** A_s must be in \`Hand\`, and it is played: it becomes part of S and goes to the discard. A_s turns **any number** of the other cards in S into suit s for this turn, so the other cards may be of any suit, including other Aces. S is legal if and only if:
   - S contains at least one card besides A_s;
   - Σ(S) ≥ v, where A_s counts 1;
   - every card c ∈ S other than A_s is necessary: Σ(S) − val(c) < v, which is equivalent to **Σ(S) − min(S ∖ {A_s}) < v**. A_s's 1 point is included in Σ(S) for this test (I-2);
   - A_s itself is exempt from the necessity test: it "may always be played, even if its value isn't needed". This holds whether or not any card is actually converted (I-3).

   Consequences:
   - An Ace of another suit converted into S has value 1. It is therefore necessary only if Σ(S) = v exactly.
   - Only A_s can act as double agent, and it is unique (1.3). If A_s has been removed by assassination or retired, suit s has no double agent for the rest of the game.

5.4 **Effect.** The spy X **and** all cards in S go to \`DrawDiscard\` (face up). X is now an owned card and part of your deck.

5.5 The same set S may be legal as a counter, as a recruit, or as both. The player chooses the type, and the outcome differs (X goes to \`SpyDiscard\` or to \`DrawDiscard\`). Example W12 shows a set that is a legal recruit but not a legal counter.

---

## 6. Assassinate (forced)

6.1 **Precondition.** Σ(\`Hand\`) < v. This includes an empty hand, whose sum is 0. This is the only case in which assassination is allowed, and in this case it is compulsory.

6.2 **Loss check.** Let Aces = all Aces in \`Hand\` ∪ \`DrawDeck\` ∪ \`DrawDiscard\`. If there are none, the game ends immediately and is **lost** (§9.3).

6.3 **Sacrifice.** The player chooses one Ace a ∈ Aces. The choice is a specific card, because its suit matters later. Move a to \`Removed\`. If a came from \`DrawDeck\`, shuffle \`DrawDeck\`. Shuffle the draw deck alone; do not add the discard to it. Nothing is shuffled if a came from \`Hand\` or \`DrawDiscard\`.

6.4 Move the spy X face down to \`SpyDiscard\`. A face-card spy assassinated this way counts for the spies at the end.

6.5 Move **all** cards remaining in \`Hand\` to \`DrawDiscard\`. (If a came from Hand, it has already been removed.)

6.6 The turn's action is over. **No retire** is allowed in this turn. Then refill as in §8 (I-5).

---

## 7. Retire (optional; only after a counter or recruit; at most once per turn)

7.1 After the counter or recruit, the player may choose a set R ⊆ \`Hand\` (the cards left after S has gone) with |R| ≥ 2 and all cards in R of the **same value**. R goes to \`SpyDiscard\`, so those cards are gone from your deck for good. A single card can never be retired.

7.2 One retire per turn means one group of a single rank (I-6). With three 2s in hand, the player may retire any two of them or all three.

7.3 Any rank may be retired:
   - **Aces:** legal. They are lost as lives and as double agents.
   - **Face cards:** legal, but they go to \`SpyDiscard\` and count for the spies at the end.
   - **Recruited 5–10s:** legal.

7.4 The recruited spy cannot be retired in the same turn, because it goes to \`DrawDiscard\`, not to the hand.

7.5 Retiring before or after the action makes no difference to the result, because S and R are disjoint and neither legality test depends on the other. What matters is that the mode test of §3.2 uses the **whole** hand, before anything is retired.

---

## 8. Refill (end of every turn)

8.1 Keep the cards left in \`Hand\`. Then:

\`\`\`
while |Hand| < 5:
    if DrawDeck is empty:
        if DrawDiscard is empty: stop          # draw as many as exist (I-9)
        DrawDeck := shuffle(DrawDiscard); DrawDiscard := ∅
    Hand += pop_top(DrawDeck)
\`\`\`

8.2 The reshuffle is **lazy**. It happens only when a card must be drawn and \`DrawDeck\` is empty, not at the moment \`DrawDeck\` runs out. Cards discarded earlier in the same turn, including a just-recruited spy, take part in that reshuffle and can be drawn at once.

8.3 "Draw up to 5" is a refill, not a hand limit to discard down to. The hand can never be above 5: every counter or recruit uses at least one card, and an assassination empties the hand. So every turn draws at least one card if any card is available.

8.4 The hand may stay below 5 cards for good if you own fewer than 5 cards in total after heavy retiring. The game continues normally with the smaller hand.

---

## 9. End of game and scoring

9.1 The game ends after the turn in which the 36th spy was dealt with, whether by counter, recruit or assassination. Retiring in that final turn is allowed but pointless, and the final refill does not affect the result.

9.2 **Win test.** owned_faces = number of J/Q/K in \`Hand\` ∪ \`DrawDeck\` ∪ \`DrawDiscard\`.
   - The player **wins if and only if owned_faces ≥ 7**, that is, more than half of the 12.
   - S1 also phrases this as "more than there are in the spy discard pile". That is the same test: only Aces ever go to \`Removed\`, so at a normal end the 12 face cards are split exactly between owned cards and \`SpyDiscard\`.
   - 6–6 is a loss.

9.3 **Loss by running out of Aces.** This happens when §6.2 finds no Ace. The game stops at once and the result is a loss, whatever the face-card count.

9.4 **Scoring variant (optional).** Score = owned_faces at the end: 7 or more wins, 12 is a perfect game. For a loss by §9.3 the rules give no score. We record owned_faces at the moment of loss, marked \`lost_no_ace\` (I-14).

---

## 10. Engine model: information, moves, randomness, invariants

10.1 **Information the player has.** This is the physical game with perfect memory:
- the top spy;
- the number of cards left in \`SpyDeck\`, and which spies are still in it (the groups are public; the order is not);
- the contents of \`SpyDiscard\` (face down, but the player saw every card go there);
- \`DrawDiscard\` (face up);
- the hand;
- the *composition* of \`DrawDeck\` (owned cards minus hand minus discard), but not its order.

Hidden: the order of \`SpyDeck\` below the top card, and the order of \`DrawDeck\`.

10.2 **Generating legal moves.** The hand has at most 5 cards, so there are at most 31 subsets.
\`\`\`
if Σ(Hand) < v:
    aces = Aces in Hand ∪ DrawDeck ∪ DrawDiscard
    moves = [Assassinate(a) for a in aces]        # empty -> game lost
else:
    for S in nonempty subsets of Hand:
        if legal_counter(S): for R in retire_options(Hand \\ S): moves += (counter, S, R)
        if legal_recruit(S): for R in retire_options(Hand \\ S): moves += (recruit, S, R)
legal_counter(S)  := Σ(S) >= v and Σ(S) - min(S) < v
legal_recruit(S)  := Σ(S) >= v and (
        (A_s in S and |S| >= 2 and Σ(S) - min(S \\ {A_s}) < v)
     or (A_s not in S and all suit(c) == s for c in S and Σ(S) - min(S) < v))
retire_options(H) := {∅} ∪ {R ⊆ H : |R| >= 2, all same value}
\`\`\`

10.3 **Randomness.** Shuffles happen at setup (four groups), at each reshuffle of \`DrawDiscard\` (§8), and when the assassinated Ace is taken from \`DrawDeck\` (§6.3). Use a seeded RNG so games can be replayed.

10.4 **Invariants for tests:**
- the zones always hold all 52 cards, each exactly once;
- \`Removed\` holds only Aces, at most 4;
- |Hand| ≤ 5;
- \`SpyDeck\` ∪ \`SpyDiscard\` ∪ owned cards ∪ \`Removed\` = 52 cards;
- owned face cards + face cards in \`SpyDiscard\` + face cards still in \`SpyDeck\` = 12;
- the turn count is 36 at a normal end.

---

## 11. Worked examples (exact expected outcomes)

We checked every legal-set list below by brute-force enumeration of all subsets. "Counters" and "Recruits" list **all** legal sets. Ranks of 5 and above in a hand are recruited spies.

**W1: necessity rule (the rulebook's counter example).** Spy 5♣. Hand 2♦ 3♥ 4♠ 7♦ A♠ (sum 17).
- Counters: {7♦}, {2♦,3♥}, {2♦,4♠}, {3♥,4♠}, {4♠,A♠}.
- Illegal, for example:
  - {3♥,4♠,2♦}: sum 9; without the 2 it is still 7 ≥ 5.
  - {7♦,A♠}: the Ace is unnecessary.
  - {2♦,3♥,A♠}: 6 − 1 = 5 ≥ 5.
- Recruits: none. There is no club in hand and A♣ is not in hand.
- Assassinate is not allowed (17 ≥ 5).
- After counter {3♥,4♠}: 5♣ → SpyDiscard; 3♥, 4♠ → DrawDiscard; hand 2♦ 7♦ A♠; no pair, so no retire; draw 2.

**W2: plain recruit (the rulebook example).** Spy 7♥. Hand 3♥ 5♥ 2♠ 4♦ A♣.
- Recruits: {3♥,5♥} only.
- Counters: {3♥,5♥}, {3♥,4♦}, {5♥,2♠}, {5♥,4♦}, {2♠,4♦,A♣}.
- After recruiting: 3♥, 5♥ **and 7♥** → DrawDiscard; hand 2♠ 4♦ A♣; draw 2.

**W3: double agent (the rulebook example).** Spy 9♣. Hand A♣ 4♣ 3♦ 2♥ 2♠.
- Recruits: {A♣,4♣,3♦,2♥} (10), {A♣,4♣,3♦,2♠} (10), {A♣,4♣,2♥,2♠} (9).
- Illegal recruits:
  - all five cards (12): dropping a 2 leaves 10 ≥ 9;
  - {4♣,3♦,2♥}: off-suit cards without the double agent.
- Counters: {4♣,3♦,2♥}, {4♣,3♦,2♠}, {A♣,4♣,2♥,2♠}.
- The rulebook's play is recruit {A♣,4♣,3♦,2♥}: those four cards and 9♣ → DrawDiscard; hand 2♠; draw 4.

**W4: the Ace is played although its value is not needed.** Spy 6♠. Hand A♠ 6♥.
- Counter {6♥}: legal. Counter {A♠,6♥}: illegal (the Ace is unnecessary).
- Recruit {A♠,6♥}: legal (A♠ is exempt and converts 6♥). Recruit {6♥}: illegal (wrong suit).

**W5: the Ace's value is needed (Ace plus off-suit cards).** Spy 7♠. Hand A♠ 6♦ 2♥.
- Recruit {A♠,6♦}: legal (exactly 7).
- Recruit {A♠,6♦,2♥}: **illegal** under our reading, because 9 − 2 = 7 ≥ 7 makes 2♥ unnecessary. It would be legal only under the alternative reading I-2.
- Counters: {A♠,6♦}, {6♦,2♥}.

**W6: an Ace of another suit converted into the recruit.** Spy 9♣. Hand A♣ A♦ 4♣ 3♦ 3♥.
- Recruits: {A♣,A♦,4♣,3♦} (9), {A♣,A♦,4♣,3♥} (9), {A♣,4♣,3♦,3♥} (11).
- Illegal: all five cards (12; dropping A♦ leaves 11 ≥ 9). A set of only A♣ and A♦ fails because 2 < 9.
- A♦ can be in a recruit only when the total is exactly 9.

**W7: forced counter; voluntary assassination and the whole hand are not allowed.** Spy K♠ (13). Hand 4♦ 4♣ 3♥ 2♦ A♥ (14).
- Assassinate is illegal (14 ≥ 13). Recruit is impossible: no spade, and A♠ is not in hand.
- The only legal move is counter {4♦,4♣,3♥,2♦} (13). The whole hand (14) is illegal, because A♥ is unnecessary.
- Result: K♠ → SpyDiscard, where it counts for the spies; hand A♥; no retire; draw 4.

**W8: retire (the rulebook example).** Spy 7♥. Hand 2♣ 2♥ 2♠ 3♠ 9♦.
- Counters: {9♦}, {2♣,2♥,3♠}, {2♣,2♠,3♠}, {2♥,2♠,3♠}. No recruits.
- After counter {9♦}, the retire options are: none, {2♣,2♥}, {2♣,2♠}, {2♥,2♠}, or {2♣,2♥,2♠}.
- With all three retired: the 2s and 7♥ → SpyDiscard; 9♦ → DrawDiscard; hand 3♠; draw 4.
- After counter {2♣,2♥,3♠}: hand 2♠ 9♦, so no retire is possible.

**W9: retiring face cards is legal but bad.** Spy 6♥. Hand J♠ J♦ 4♥ 2♥ 3♣.
- Recruit {4♥,2♥}, then retire {J♠,J♦}. Both Jacks go to SpyDiscard for good.
- From then on the player can own at most 10 face cards. The two Jacks count for the spies.

**W10: retiring Aces is legal.** Spy 5♥. Hand A♣ A♦ 5♠ 2♥ 3♥.
- Recruit {2♥,3♥}, then retire {A♣,A♦} → SpyDiscard.
- Two Aces are left for assassinations. There is no double agent for ♣ or ♦ for the rest of the game.

**W11: assassination and the choice of Ace.** Spy Q♦ (12). Hand 2♣ 2♥ 3♠ A♦ 3♦ (11 < 12), so assassination is forced. A♠ is in the DrawDeck and A♥ is in the DrawDiscard. The choices:
- (a) Remove A♦ from the hand. 2♣ 2♥ 3♠ 3♦ → DrawDiscard.
- (b) Remove A♠ from the DrawDeck and **shuffle the DrawDeck**. The whole hand, A♦ included, → DrawDiscard.
- (c) Remove A♥ from the DrawDiscard. The whole hand → DrawDiscard. No shuffle.

In every case Q♦ → SpyDiscard (it counts for the spies). No retire is allowed (the pairs of 2s and 3s may not be retired). Then draw 5.

**W12: a set can be a legal recruit but not a legal counter.** Spy Q♦. Hand 9♦ 3♦ A♦ 2♠ 4♣.
- Recruits: {9♦,3♦}, {9♦,3♦,A♦}, {9♦,A♦,2♠}, {9♦,A♦,4♣}.
  - {9♦,3♦,A♦}: the Ace is exempt even though no card is converted (I-3).
  - {9♦,A♦,4♣}: sum 14; 14 − 4 = 10 < 12.
- Counters: {9♦,3♦}, {9♦,4♣}, {9♦,A♦,2♠}.
- {9♦,A♦,4♣} is **not** a legal counter, because 14 − 1 = 13 ≥ 12 makes the Ace unnecessary.

**W13: face-card recruit with 10 + Ace.** Spy J♥ (11). Hand 10♥ A♥ 2♥ 3♣ 4♦.
- Recruits: {10♥,A♥}, {10♥,2♥}. {10♥,A♥,2♥} is illegal: 13 − 2 = 11 ≥ 11.
- Counters: {10♥,A♥}, {10♥,2♥}, {10♥,3♣}, {10♥,4♦}.

**W14: refill with a mid-draw reshuffle.** After the action: Hand has 2 cards, DrawDeck has 1 card, and DrawDiscard has 6 cards (including the cards just used and any recruited spy).
- Draw 1; the DrawDeck is now empty.
- 2 more cards are needed, so shuffle the 6 discards into a new DrawDeck and draw 2.
- End state: Hand 5, DrawDeck 4, DrawDiscard 0.

**W15: both piles run out.** After the action: Hand has 1 card, DrawDeck has 0, and DrawDiscard has 2.
- Shuffle the 2 cards into the DrawDeck and draw both. Hand 3. Both piles are empty, so stop.
- The next turn is played with 3 cards. If their sum is below the spy's value, the player must assassinate, and the Ace can only come from the hand.

**W16: losing by running out of Aces.** Spy 10♥. Hand 3♣ 2♦ 2♠ 2♥ (sum 9 < 10). All four Aces are in Removed or SpyDiscard. The game is lost immediately, however many face cards the player owns.

**W17: final count.** After turn 36:
- The player owns K♣ (hand), J♥ Q♠ Q♥ (DrawDeck) and J♣ K♦ K♠ (DrawDiscard): 7 face cards → **win**.
- The other 5 are in SpyDiscard (countered, assassinated or retired).
- Had one of the 7 been retired earlier, it would be 6–6 → **loss**.

**W18: the last spy is assassinated.** Spy 36 (say K♦) must be assassinated and an Ace exists. Do §6, and K♦ goes to SpyDiscard. The game then ends normally and is scored by §9.2. It is not a loss in itself.

---

## 12. Interpretations we chose, and ambiguities we could not settle

Each item gives the reading we chose, the alternative, and the reason. Items marked **[flag]** are game options, chosen at creation and recorded in the first event; the default is the reading shown.

- **I-1 Meaning of "every card must be necessary".** Chosen: inclusion-minimal. No card can be removed while the sum stays ≥ v. Formally, Σ(S) − min(S) < v. Rejected: "smallest sum" or "fewest cards". The rulebook example allows a single 7, or 3+4, against a 5, which rules both of those out.

- **I-2 Necessity test with the double-agent Ace [flag \`ace_counts_in_necessity=true\`].** Chosen: A_s's 1 point is counted in Σ(S) when testing the *other* cards. S1 says "The Ace itself counts 1", and its carve-out covers only the Ace ("may always be played … even if its value isn't needed").
  - Alternative: test the other cards as if the Ace were absent. This makes W5's {A♠,6♦,2♥} legal.
  - Our bot simulations showed no measurable win-rate difference (49.9% vs 49.9% on the same 3,000 seeds).

- **I-3 When the Ace exemption applies.** Chosen: whenever A_s is played in a recruit, even if every other card is already of suit s (W12 {9♦,3♦,A♦}). The text says "may always be played for this". Alternative: only when at least one card is actually converted.

- **I-4 Assassination only when forced.** Chosen: allowed only if Σ(Hand) < v (S1 explicit; S3 "forced"). You cannot assassinate voluntarily to keep your cards. Strategically this hardly matters: a countered spy also goes to SpyDiscard, so assassination only costs an Ace and your hand.

- **I-5 Refill after an assassination.** Chosen: yes. "Your turn is over" ends the *actions* (no retire), but the End-of-turn section ("Keep the cards left in your hand and draw back up to 5") applies to every turn. Without a refill the next hand would be empty (sum 0), forcing assassinations one after another. That reading is absurd.

- **I-6 One retire per turn = one rank [flag \`retire_multiple_ranks=false\`].** S1: "once per turn … two or more cards of the same value". Alternative: several same-rank groups in one retire (S4's "multiples of the same rank" is vague). Our bot showed no measurable difference.

- **I-7 When you may retire.** Only in a counter or recruit turn, and never in an assassination turn. Modelled as part of the same atomic move. Whether it happens before or after the action makes no difference to the result, but the counter/assassinate test uses the full hand (§7.5).

- **I-8 Retiring Aces and face cards.** Both are legal. The text allows any value. For face cards, S1 warns that they "count for the spies".

- **I-9 Draw deck and discard both empty during refill.** Draw what is available and play on with a smaller hand. Nothing in the rules ends the game or penalises this case.

- **I-10 Reshuffle timing.** Lazy: only when a draw is needed (S1 explicit, "when you need to draw"). Cards just used are included.

- **I-11 Destination of a recruited spy.** DrawDiscard, together with the cards used (S1/S2 explicit). S4's "draw deck" is loose wording.

- **I-12 Double-agent scope.** The Ace must be the spy's suit, in hand, and played. It converts any number of other *played* cards, including other Aces (at value 1). An Ace of another suit has no double-agent power. There is one per suit, and it is gone for good once removed or retired.

- **I-13 No Ace exemption when countering.** The exemption is stated only "when recruiting".

- **I-14 Score on a loss by running out of Aces.** The rules only say "you have lost". We report result = loss and record the owned face cards at that moment, with the result \`lost_no_ace\` (the outcome's score is that count). Not an option: the count is recorded, and a client may ignore it.

- **I-15 Strict necessity vs "any number of cards" [flag \`strict_necessity=true\`].** The official fragment S3 ends before its "necessary" clause would appear, and S4 does not mention it. S1/S2 state the rule with an example, so it is the default. Setting the flag to false would allow any S with Σ(S) ≥ v: a much easier game, since unwanted cards can be dumped.

- **I-16 Counter vs recruit.** The choice is free when both are legal. The "Tips" ("better, recruit") are advice, not rules.

- **I-17 Visibility of upcoming spies.** Only the top spy is visible. The engine must not reveal the next spy. The set of unseen spies per group is public knowledge.

- **I-18 Choice of Ace in an assassination.** The player picks the exact Ace and its zone (hand, draw deck or draw discard). Only a pick from the draw deck triggers a shuffle, of the draw deck only. In the physical game you search the deck to find the Ace. The shuffle afterwards keeps the order hidden.

- **I-19 Ranks "5s up to the Kings".** The overview's "from the 5s up to the Kings" describes the three bands. Within each band the order is random, not ascending.

- **I-20 End of the last turn.** Retire may happen but cannot change the result. This engine skips the refill after turn 36: it could not change the result either, and the log ends with the last spy's turn.

Ambiguities left truly open, because no source settles them: **I-2**, **I-3**, **I-6**, **I-14** and **I-15**. I-15 could be settled by the rest of the official v1.0 rulebook (S3), of which we saw only the first page. The flags let a game be played under the other reading without a change of code.

---

## 13. Strategy notes and bot benchmark

13.1 **Published material.** We know of no published win rates, simulations or strategy analyses. The only qualitative material:
- S1's tips: retire your 2s and 3s; recruit early and high; keep at least one Ace in reserve; don't overpay.
- S4: the game "favors hand shape over hand power". S4 also says Aces "can be a bit too powerful for recruiting, but the more aces you sit in your deck the less powerful your hand beco[mes]".

13.2 **Our Monte-Carlo benchmark.** These are our own runs, using the rules exactly as specified above, with I-2 and I-6 at their defaults unless noted. Games run on independent random deals (Python \`random\`, fixed seeds).

| Bot | Games | Win rate | Notes |
|-----|-------|----------|-------|
| Uniform random legal move (random action set, random retire, random Ace) | 2,000 | **0.0 %** | 5.1 % of games lost by running out of Aces; median owned faces 1 |
| Simple greedy (see below), retires only pairs of 2s/3s | 5,000 | **17.2 %** (±1.0 pp, 95 % CI) | mean owned faces 4.88; 0.07 assassinations/game |
| Same, but never retires | 1,500 | ~2.5 % | thinning is essential |
| Tuned greedy (see below) | 5,000 | **50.7 %** (±1.4 pp) | mean owned faces 6.52; 0.35 assassinations/game; never lost by running out of Aces |
| Tuned greedy, with the alternative reading I-2 or with multi-rank retire I-6 | 3,000 each | 49.9 % / 49.8 % | baseline on the same seeds: 49.9 % |

Final owned-face distribution for the tuned greedy bot (5,000 games): 1:2, 2:34, 3:151, 4:381, 5:753, 6:1146, 7:1154, 8:808, 9:392, 10:152, 11:25, 12:2.

**How the greedy bots choose.** Each turn they enumerate every legal \`(type, S, R)\` and pick the highest score:
- +100 for recruiting a face card; +v for recruiting another spy;
- + w_keep × Σ(kept hand);
- + w_ace × (number of Aces kept in hand);
- +2 per retired card, but only ranks in the allowed retire set, and never letting owned cards fall below 8.

When assassinating, they remove the Ace whose suit has the fewest face cards (then the least total value) left in the SpyDeck.

| Setting | Simple greedy | Tuned greedy |
|---------|---------------|--------------|
| w_keep | 0.3 | 0 |
| w_ace | 0 | 2 |
| Ranks it may retire | {2, 3} | {2, …, 10}, any pair or triple |

13.3 **What the simulations suggest about strategy:**
1. Thinning the deck is the dominant lever.
   - Allowing any rank 2–10 to be retired took the win rate from 17 % to 51 %.
   - Never retiring gives about 2–3 %.
   - A thin deck makes it likely that the right Ace is in hand when a face card arrives. With that Ace, any hand summing to ≥ v recruits it.
2. Always recruit when possible. A bot that counters instead of recruiting non-face spies falls to about 4 % wins, averages about 3 assassinations per game, and loses about 4 % of games by running out of Aces.
3. Keeping Aces in hand when it costs little helps, but only moderately.
4. Never retire Aces or face cards.
5. Assassinations are rare for decent play (about 0.35 per game). Running out of Aces is essentially a random-play failure.

13.4 **Benchmark guidance.**
- Any engine-conformant bot should beat random play (≈0 %) by a wide margin.
- About 17 % is a naive baseline. About 50 % is what a simple tuned one-ply heuristic reaches.
- A stronger bot, using look-ahead over the known spy bands and deck composition, should aim above 50 %. We have no evidence about the ceiling.
- These figures assume the defaults above. With \`strict_necessity=false\` (I-15) the game becomes much easier, and the figures do not apply.

---

## 14. Sources

- S1: *Deck of Spies*, full rules in English, James Newman.
- S2: *Deck of Spies*, full rules in German (a translation of S1).
- S3: *Deck of Spies Rules v1.0*, 3 pages, apparently the official rulebook (page 1 only, which
  stops in the Counter rule).
- S4: "Game Review: Deck of Spies", mwmgameideas blog, 8 May 2023,
  <https://mwmgameideas.blogspot.com/2023/05/game-review-deck-of-spies.html> (its beginning).
`;var ma=`# Stratego Spies & Lies: rule reference

Game: *Spies & Lies: A Stratego Story* (German: *Spies & Lies: Eine Stratego-Geschichte*; Dutch: *een Stratego-verhaal*;
North America: *Stratego Spies & Lies*, Outset Media J-81945). Designer Don Eskridge, art Roland MacDonald,
Koninklijke Jumbo B.V. 2019, Jumbo item 19739, EAN 8710126197394. Two players (team variant for 3–4), about 30 min.

This page is the rule reference of this project: the engine's game \`spies-and-lies\` implements
it, and the code and tests cite it by number.

How to read and cite it:

- **§n.m** and **§n.m.k** are numbered rules (§5.1.2 is the ordering rule); the steps of a
  guess-turn are cited as "§6 step 5a", a soldier's ability as "§9 Captain" or §9.6 (§9.n is the
  soldier of rank n).
- **I-n** is an interpretation we chose where the sources are silent or ambiguous (§15); each
  says why. **U-n** is an unverified fact, a game option with the default of §16.
- **En** (from the rulebook) and **Tn** (ours) are worked examples with exact expected outcomes
  (§17). Every one is a test in \`tests/core/spies_and_lies/test_examples.py\` and
  \`test_vectors.py\`.
- Outside the game's own package and tests, name the game: "Spies & Lies §5.1.2", "Spies & Lies
  I-9". \`tests/test_rule_citations.py\` fails on a citation this page lacks.

**How the engine plays it.** Sections 2-12 and 14 (team play with 4 seats) with the
interpretations of §15. The unverified facts of §16 (board length, intel card faces, ...) are
game options with the defaults given there, recorded in the first event. The engine validates
deployments and intel tokens, so the tabletop-error rules of §13 cannot arise and are not
implemented; the 3-player team variant (§14.5) is not offered. Seats: 2 (0 red, 1 blue), or 4
(seats 0 and 2 red, 1 and 3 blue; the first of each team plays Missions 1-2). Soldiers are
written by rank, \`1\` to \`10\`. The commands are one per decision point of §6.1: \`deploy
{soldiers}\`, \`mark_sergeant {token}\` and \`confirm_intel\` (every seat answers the intel phase, so
nobody learns who deployed a Sergeant), \`deceive\`, \`decline_deception\`, \`guess {rank}\`,
\`choose_marshal {option}\`, \`choose_captain {borrow}\`.

Status tags used throughout:

* **[S]** stated in the rulebook extract S0 (the German section of the official multi-language Jumbo rulebook).
* **[C]** corroborated by an independent source (listed in §0).
* **[I-n]** an interpretation we chose where the sources are silent or ambiguous; see §15, item n.
* **[U-n]** unverified fact that we could not find in any source; the engine makes it a game option; see §16.

---

## 0. Sources and how far they go

| Id | Source | What it gave us |
|----|--------|-----------------|
| S0 | German rulebook extract, pp. 22–29 of the official multi-language booklet (a garbled text scan: the ten ability texts are detached from their names) | Almost all rules. The name list at the end ("Spionin, Aufklärer, Mineur, Feldwebel, Kapitän, Bombe, Oberst, Feldmarschall, General, Leutnant") is in the same order as the ten ability paragraphs, which is how the abilities are re-attached to ranks in §9. |
| S1 | https://ultraboardgames.com/spies-and-lies-a-stratego-story/game-rules.php | English rules (only their opening was available to us): component list, object, first setup steps; English terms *Deploy / Intel / Mission*, *Intel cards/tokens*, *Deception tokens*, *Infiltration marker*, *Double Agent*, *Day marker*, *Starting Player card*, *Reference card*. |
| S2 | https://manual-pdf.com/brands/jumbo/spies-and-lies-a-stratego-story | Dutch rulebook opening: identical component list, incl. "3 Stratego towers (1 red infiltration tower, 1 blue infiltration tower, 1 black Double Agent)". |
| S3 | http://www.heidelbaer.info/SPIELE/jumbo/spies_lies_e0.htm | English summary (Austrian game museum): phases; Sergeant exception; "if he is in front of the fortress and may be moved, the flag is conquered"; team rules included; 2–4 players. |
| S4 | https://www.outsetmedia.com/content/stratego-spies-lies | Publisher text of the North-American edition: three phases; +2 for a correct identification; on a wrong guess the owner "can immediately activate their Soldier's special ability and earn any Infiltration points or move the Double Agent directly"; 3–4 player variant. |
| S5 | https://www.meeplegamers.com/spies-and-lies-a-stratego-story-jumbo-review/ | "An Intel card is flipped and will show four numbers"; guessing starts at deployment position 1. |
| S6 | https://boardgamegeek.com/blogpost/94214/game-preview-spies-lies-stratego-story-or-nostalgi (mirror: https://boardgamewikia.com/news/game-preview-spies-amp-lies-a-stratego-story-or-nostalgia-by-the-numbers) | Intel card "forces you to mark cards that are in certain numerical ranges (other than the #4, which you can mark or not as you wish)"; tug-of-war double agent; instant win on the flag, otherwise closeness after 3 rounds. |
| S7 | https://lesdragonsnains.com/jeux/spies-and-lies/ | Intel card "indique une catégorie : 1 à 4, 4 à 7 ou 7 à 10"; Sergeant may stay hidden or pose as another number; correct guess = 2 points; wrong guess = owner scores the card's face value unless the number is boxed in black on the reference card, and activates its power; deception = +4; the Spy (1) gives the deception token and neutralises the Marshal. |
| S8 | https://www.trictrac.net/actus/critique-de-spies-lies | Double agent advances "d'autant de cases que la manche en cours"; deception +4; one exhausted card per player. |
| S9 | https://muchachitaludica.com/2020/01/07/spies-lies/ | Spanish setup: intel deck shuffled, first card revealed; mission cards of both players face each other; 9 cards in hand on day 1. |
| S10 | https://donmeeple.com/spies-lies-historia-stratego-juego-mesa/ | Double agent on the *central space of the path*. |
| S11 | https://www.reich-der-spiele.de/kritiken/spies-and-lies | Double agent moves when the own tower reaches 10, or through Lieutenant or General. |
| S12 | https://consolaytablero.com/2019/12/10/spies-lies-nuevo-juego-stratego , https://boardgamemonkeys.com/2020/07/spies-lies.html , https://www.kinderspielmagazin.de/2020/04/19/spies-lies/ , https://misutmeeple.com/2019/12/resena-spies-lies-a-stratego-story , https://www.tomshw.it/culturapop/spies-lies-recensione/ , https://www.nerdream.it/2020/05/26/spies-lies-recensione/ , https://www.balenaludens.it/2020/spies-lies-a-stratego-story/ , https://ean-shopping.de/ean/8710126197394.htm | General corroboration (3 days × 3 phases, towers, 10-card decks, German product text identical to S0 wording). |

**Coverage limits.** None of the sources gives the full English rulebook, the reference card, the board
artwork or the faces of the six Intel cards, and the web pages above were available to us only from their
beginning. We know of no other digital implementation of this game. Therefore the **number of board spaces**
and the **exact Intel-card composition** remain unverified (§16).

---

## 1. Components [S][C: S1, S2, S9]

| Component | Count | Notes |
|-----------|-------|-------|
| Game board | 1 | Double Agent track (neutral centre space, each player's territory, a fortress gate and a flag at each end), one Infiltration track 0–10 per colour, Day track (Day 1, 2, 3). |
| Soldier cards | 10 red + 10 blue | One card of each rank 1–10 per colour. |
| Mission cards | 2 sets of 4 | "Mission 1" … "Mission 4" per colour. |
| Intel cards (DE *Erkundungskarten*) | 6 | Each lists four ranks (see §5.2, [U-2]). |
| Starting Player card | 1 | Two-sided; flipped like a coin to pick the Day-1 starter. |
| Reference cards (DE *Übersichtskarte*) | 8 | Ability overview; each player uses one (8 because of the multi-language edition; irrelevant to rules). |
| Intel tokens (DE *Erkundungsmarken*) | 2 sets of 4 | 4 per player. |
| Stratego towers | 3 | Red infiltration marker, blue infiltration marker, black Double Agent. |
| Day marker | 1 | |
| Deception tokens (DE *Täuschungsmarken*) | 4 | 1 per player at start + 2 in a shared reserve ([I-9]). |

### 1.1 German ↔ English glossary (for reading S0)

| German (S0) | English term used here |
|-------------|------------------------|
| Aufstellung / Erkundung / Mission | Deploy / Intel / Mission phase |
| Soldatenkarte, Missionskarte | Soldier card, Mission card |
| Erkundungskarte, Erkundungsmarke | Intel card, Intel token |
| Täuschungsmarke (Reserve-Täuschungsmarken) | Deception token (reserve) |
| Infiltrationsturm, Punktezähler | Infiltration marker, Infiltration track |
| Doppelspion, Festung, Tor, Fahne | Double Agent, fortress, gate, flag |
| Tageszähler, Tag | Day marker, day (= round) |
| erschöpft | exhausted |
| enttarnt / den Rückzug antreten / quer legen | identified / retreat / turn 90° |
| aktivieren | activate |
| Startkarte, Startspieler | Starting Player card, starting player |

---

## 2. Soldier ranks (names) [S][C: S3, S7, S11, S12]

| Rank | German | English | French (S7) |
|------|--------|---------|-------------|
| 1 | Spionin | Spy | Espionne |
| 2 | Aufklärer | Scout | Éclaireur |
| 3 | Mineur | Miner | Démineur |
| 4 | Feldwebel | Sergeant | Sergent |
| 5 | Leutnant | Lieutenant | Lieutenant |
| 6 | Kapitän | Captain | Capitaine |
| 7 | Bombe | Bomb | Bombe |
| 8 | Oberst | Colonel | Colonel |
| 9 | General | General | Général |
| 10 | Feldmarschall | Marshal | Maréchal |

Note: unlike classic Stratego, the Bomb is a numbered soldier (rank 7, taking the Major's slot) and participates in the
rank ordering [S: "Die Bombe (7) liegt nicht an der richtigen Position"].

---

## 3. Recommended game-state model

\`\`\`
Game
  day: 1..3
  startingPlayerOfDay: Red|Blue            # Day-1 random, then alternates
  doubleAgent: int  in [-(G+1) .. +(G+1)]  # 0 = neutral centre; >0 = Blue's territory (Red attacks +), <0 = Red's
  intelDeck: list<IntelCard> (hidden order); oldIntel: list<IntelCard> (public); currentIntel: IntelCard|null
  deceptionReserve: int (starts 2)
  players[Red|Blue]:
     hand: set<rank>                       # secret
     exhausted: set<rank>                  # public (1 or 2 cards)
     missions[1..4]: {rank, faceUp, retreated(bool), activated(bool), intelToken(bool), deceptionToken(bool)}
     tower: 0..9                           # infiltration track value at rest (10 never persists)
     deceptionTokens: 0..2                 # public
     roundFlags: {scoutActive, spyActive, minerActive, bombPending, doubleDamage}
     daStepsThisRound: int                 # only needed for tabletop special rule 2 (§13)
  result: none | RedWins | BlueWins | Draw
\`\`\`

Hidden information: each player sees his own hand and own face-down deployed cards at any time [S]; everything else
listed as public above is visible to both. The intel deck order is hidden from both.

---

## 4. Setup [S][C: S1, S9, S10]

4.1 Each player picks a colour (red/blue) and takes: his 10 Soldier cards, 4 Mission cards, 1 Reference card,
   4 Intel tokens, 1 Deception token.

4.2 Board in the middle, each player's own flag nearest to him.

4.3 Both Infiltration markers on space 0 of their track.

4.4 Double Agent on the open centre space (neutral) of the Double Agent track.

4.5 Day marker on Day 1.

4.6 Starting Player card and the 2 reserve Deception tokens beside the board (shared reserve, [I-9]).

4.7 Each player lays his Mission cards 1–4 in order, left to right from his own viewpoint, facing the opponent's
   [S: "in der richtigen Reihenfolge"; C: S9 "enfrentadas"] ([I-12]).

4.8 Shuffle the 6 Intel cards into a face-down deck; turn the top card face up beside it: this is the first card of the
   public **old-intel pile**. It is never used as a round's intel [S][C: S9].

4.9 Each player shuffles his 10 Soldier cards face down; the **opponent draws one at random**; it is placed face up
   next to the owner's reference card and is that player's **exhausted** soldier: it may not be deployed on Day 1 [S].

4.10 Each player holds the remaining 9 cards as a secret hand [S][C: S9].

---

## 5. A day (round)

The game lasts at most 3 days. Each day has three phases in order: **Deploy → Intel → Mission** [S][C: all].

### 5.1 Deploy phase [S][C: S3, S4, S5, S6, S7]

5.1.1 Simultaneously and secretly, each player places exactly one face-down Soldier card from his hand under each of his
   four Mission cards (4 cards total). Exhausted soldiers cannot be deployed.

5.1.2 **Ordering constraint:** reading Mission 1 → Mission 4, the ranks of all deployed cards **except the Sergeant (4)**
   must be strictly increasing. The Sergeant, if deployed, may occupy any position.
   * Valid: \`2-7-4-10\` (S0 example), \`1-3-6-9\`, \`4-1-2-3\`, \`5-6-8-4\`.
   * Invalid: \`1-2-7-6\`, \`3-2-5-9\`, Miner (3) after a higher card, Bomb (7) after the Colonel, etc.

5.1.3 Any 4 distinct ranks can always be arranged legally, so a legal deployment always exists.

5.1.4 A player may look at his own deployed cards at any time during the day [S].

5.1.5 Engine rule: reject illegal deployments (this makes tabletop special rule 2, §13, unreachable).

Because of the ordering rule the Spy can only be at Mission 1 (or 2 if the Sergeant is at Mission 1) and the Marshal only
at Mission 4 (or 3 if the Sergeant is at Mission 4). This fact is used in [I-4].

### 5.2 Intel phase [S][C: S3, S4, S5, S6, S7]

5.2.1 Reveal the top card of the intel deck; it lies face up on the deck and is the **current intel** [S].

5.2.2 Each player must place an Intel token on each of his Mission cards whose soldier's rank is printed on the current
   intel card — **except the Sergeant** [S].

5.2.3 **Sergeant freedom** [S: rank table; C: S6, S7]: the Sergeant may carry an Intel token or not, freely, whether or not
   4 is on the card ("he can give NO information when he should, OR give information when he should not").
   All other cards must be marked exactly: token ⇔ rank ∈ current intel card.

5.2.4 Intel tokens are public. Engine: auto-place tokens for non-Sergeant cards; ask the Sergeant's owner for his choice;
   reveal both players' tokens simultaneously ([I-13]).

5.2.5 **Intel card faces [U-2]:** each card shows four ranks forming one of three consecutive blocks:
   \`{1,2,3,4}\`, \`{4,5,6,7}\`, \`{7,8,9,10}\` [C: S5 "four numbers", S6 "numerical ranges", S7 "1 à 4, 4 à 7 ou 7 à 10"].
   Deck composition assumed: **two copies of each block** (6 cards) [I-1].

5.2.6 Deduction information available to a guesser [S]: the current intel card, number/position of intel tokens, the
   old-intel pile, the opponent's exhausted soldier(s), already revealed cards, and the ordering rule.

### 5.3 Mission phase — exact turn order [S][C: S5, S8]

5.3.1 **Starting player:** Day 1 — random (the Starting Player card is flipped like a coin). Day 2 — the player who did not
   start Day 1. Day 3 — the Day-1 starter again [S: "Der Spieler, der in der vorigen Runde nicht anfangen durfte, beginnt
   die nächste Runde"]. The card is flipped when the Mission phase of Day 1 begins (S0 names the flip under "3. Mission"),
   so neither player knows the Day-1 starter while deploying or placing intel; Day 2 and Day 3 starters follow from the
   alternation and are known in advance.

5.3.2 Eight guess-turns, strictly in this order (P = starting player, Q = other player):

   | # | Guesser | Target |
   |---|---------|--------|
   | 1 | P | Q's Mission 1 |
   | 2 | Q | P's Mission 1 |
   | 3 | P | Q's Mission 2 |
   | 4 | Q | P's Mission 2 |
   | 5 | P | Q's Mission 3 |
   | 6 | Q | P's Mission 3 |
   | 7 | P | Q's Mission 4 |
   | 8 | Q | P's Mission 4 |

5.3.3 The target is never chosen; it is always the next mission in order. Each guess-turn is resolved with §6.

5.3.4 The game ends immediately if a flag is captured (§8); otherwise the day ends after guess-turn 8 (§11).

---

## 6. Resolving one guess-turn (normative algorithm)

Let **G** be the guesser, **D** the defender, **T** D's face-down card at the current mission.

1. **Deception window** [S]: before G names a rank, D may place one of his Deception tokens on T (announced publicly:
   "I play a deception token on my soldier at Mission 3"). At most one token per card ([I-9]).
2. **Guess** [S]: G names a rank (number or name). Any rank 1–10 is legal ([I-14]).
3. **Reveal** [S]: T is turned face up.
4. *(Tabletop-error checks of §13 would happen here; with engine validation they never trigger.)*
5. **Forced retreat check** — \`forced = false\`:
   * a. If G has \`bombPending\` (§9, rank 7): \`forced = true\`, and clear \`bombPending\` now (it is consumed by this reveal,
     whatever the guess) [S][I-10].
   * b. If G has \`spyActive\` and rank(T) = 10 (Marshal): \`forced = true\` [S][I-4].
   * c. If G has \`minerActive\` and rank(T) = 7 (Bomb): \`forced = true\` [S][I-4].
6. **Correct guess** (named rank = rank(T)) [S]:
   * G gains **2** infiltration points, or **4** if G has \`scoutActive\` (§7 add-points).
   * T **retreats**: stays face up, turned 90°; its ability can never be activated.
   * If step 5a applied, set G's \`doubleDamage\` flag (§9 Bomb, §11).
   * A Deception token on T has no effect; it is removed from the game.
7. **Wrong guess** [S]:
   * G gains nothing.
   * If \`forced\`: T retreats; no activation.
   * Else T is **activated**: it stays face up in normal orientation and D resolves its ability immediately (§9, [I-7]),
     including infiltration points, Double Agent moves and choices.
   * If a Deception token is on T: **after** the activation is fully resolved (including any infiltration and reset it
     caused), D gains **+4** infiltration points as a separate gain [S]. This also applies when T was forced to retreat
     [I-5]. The token is removed from the game.
8. After every Double Agent move check for flag capture (§8); if captured, the game ends at once.

### 6.1 Decision points an engine must expose

| When | Who decides | Choice |
|------|-------------|--------|
| Deploy phase | each player (secret, simultaneous) | 4 cards from hand and their mission positions (validated, §5.1) |
| Intel phase | owner of a deployed Sergeant (secret) | Intel token on the Sergeant: yes/no |
| Before each guess | defender, if holding ≥ 1 token | play a Deception token on the target: yes/no |
| Each guess-turn | guesser | a rank 1–10 |
| Marshal activation | owner | 10 points, or 5 points and opponent −5 |
| Captain activation | owner | 6 points, or borrow one own exhausted soldier (then that soldier's choices, e.g. Marshal) |
| Day setup / end of day | opponent (random in engine) | blind draw of 1 (or 2) exhausted soldier(s); Day-1 starter coin flip |

All other effects are automatic.

---

## 7. Infiltration points and the infiltration track [S][C: S4, S8]

7.1 Each player has a track 0–10. A player can never hold more than 10 points; excess is lost [S].

7.2 **Infiltration:** whenever a player's marker reaches 10 he has infiltrated the enemy: he immediately moves the Double
  Agent toward the opponent's fortress by as many steps as the current day number (Day 1: 1, Day 2: 2, Day 3: 3) [S][C: S8],
  then puts his marker back on 0; remaining points of that gain are lost — except for the Colonel (§9) [S].

7.3 There is no limit on the number of infiltrations per day [S].

7.4 Points and the Double Agent persist between days [S].

Reference procedure (every gain is one call; the soldier's gain and the deception +4 are two separate calls):

\`\`\`
addPoints(P, n, colonelCarry=false):
    t = tower[P] + n
    if t < 10: tower[P] = t; return
    overflow = t - 10
    tower[P] = 0
    moveDoubleAgent(P, steps = day)            # may end the game
    if game over: return                       # the move may have captured the flag
    if colonelCarry: tower[P] = overflow       # overflow <= 7, so never a second infiltration
losePoints(P, n): tower[P] = max(0, tower[P] - n)   # Marshal option; nothing else happens
\`\`\`

Examples [S]: Colonel with marker on 7 → 3 points reach 10 → Double Agent moves → marker 0 → remaining 5 → marker 5.
Sergeant (4) + deception (+4) with marker on 8: 8+4 → 10 → infiltrate, 2 lost → 0; then +4 → 4.

---

## 8. The Double Agent and the board [S][C: S3, S6, S10, S11]

8.1 **Board.** The Double Agent starts on the open **neutral** centre space [S][C: S10]. Each side of the centre is
  one player's **territory**; it ends at the space **in front of the gate** of that player's fortress; the **flag** is
  inside the fortress [S]. Model: integer position; 0 = centre; \`+1 … +G\` Blue's territory with \`+G\` = in front of
  Blue's gate, \`+(G+1)\` = Blue's flag; mirrored negatives for Red. **G is unverified** [U-1]; default **G = 3**, the
  game option \`board_length\`.

8.2 **Direction.** Movement is always toward the *opponent's* fortress of the player who moves it [S] (a tug-of-war
  [C: S6, S7]).

8.3 **Movement sources** (each is one **move** [I-3]):
  * infiltration: \`day\` steps [S];
  * Lieutenant (5): 1 step [S]; General (9): 2 steps [S] — fixed, independent of the day.

8.4 **Gate rule: stop** [S]. If a move reaches the space in front of the opponent's gate, the Double Agent stops there
  and remaining steps are lost.

8.5 **Gate rule: capture** [S]. If at the start of a later move the Double Agent is still in front of that gate and the
  player may move it forward (≥1 step), he **captures the flag and wins immediately**. The flag need not be reached by
  exact count [S].

8.6 Moving away from a gate, or across the centre, has no restriction.

\`\`\`
moveDoubleAgent(P, steps):
    dir = +1 if P == Red else -1                       # toward P's opponent
    gate = dir * G
    if doubleAgent == gate: result = P wins (flag captured); return
    for i in 1..steps:
        doubleAgent += dir
        daStepsThisRound[P] += 1                        # only for §13 rule 2
        if doubleAgent == gate: return                  # stop, rest lost
\`\`\`

---

## 9. Soldier abilities when activated [S][C: S7, S11]

"Activated" = the opponent guessed this soldier wrongly and it was not forced to retreat (§6). Effects resolve
immediately [I-7]; effects marked *round* last until the end of the current day and only affect the owner's later
guesses. Reference-card "black square" ranks (no face-value points) are 5, 7, 9 [C: S7 wording; U-3].

| Rank | Soldier | Infiltration points | Effect |
|------|---------|--------------------|--------|
| 1 | Spy | 1 | Gain 1 Deception token (if you hold < 2 and the reserve is not empty [I-9]). *Round:* if you find (reveal in your guess) an enemy Marshal, it must retreat at once, whether you guessed it or not [I-4]. |
| 2 | Scout | 2 | *Round:* each rank you guess correctly after the Scout's activation scores 4 instead of 2. |
| 3 | Miner | 3 | *Round:* if you come upon (reveal) an enemy Bomb, it must retreat at once, whether you guessed it or not [I-4]. |
| 4 | Sergeant | 4 | Passive only: may be deployed anywhere (§5.1) and may give false intel (§5.2). |
| 5 | Lieutenant | 0 | Move the Double Agent 1 step toward the enemy fortress. |
| 6 | Captain | 6 | **Or instead**: use one of your own currently exhausted soldiers (choose 1 if you have 2): gain that soldier's points and resolve its ability as if it had been activated [I-8]. |
| 7 | Bomb | 0 | The Bomb explodes: *round:* the next enemy card you reveal this day automatically retreats. **Double damage:** if you guess that next card correctly, at the end of the day you draw 2 (instead of 1) of the opponent's soldiers to be exhausted next day [I-10, I-11]. |
| 8 | Colonel | 8 | The only rank whose excess points are not lost (\`colonelCarry = true\`, §7). |
| 9 | General | 0 | Move the Double Agent 2 steps toward the enemy fortress. |
| 10 | Marshal | 10 **or** 5 | Owner chooses: (a) gain 10 points — remaining points lost (always triggers exactly one infiltration); or (b) gain 5 points and the opponent loses 5 (not below 0; nothing else happens if he would go to 0 or less). |

Details per rank:

9.1 **Spy (1).** The token comes from the shared reserve. Cap: never more than 2 held [S]. The Marshal effect is
  round-scoped and concerns Marshals revealed by the Spy's owner *after* the activation; an already revealed and
  activated Marshal is not undone [I-4]. If the Spy's owner guesses the Marshal correctly he still scores normally
  (+2/+4) [I-6].

9.2 **Scout (2).** Bonus applies to the owner's correct guesses later the same day (not to the 2 points of §13 rule 1).

9.3 **Miner (3).** As the Spy, mutatis mutandis, for enemy Bombs (rank 7) — the Bomb then cannot explode.

9.4 **Sergeant (4).** Being activated gives 4 points only.

9.5 **Lieutenant (5).** No points; 1 step, which obeys the gate rule (§8); each activation is a separate move.

9.6 **Captain (6).**
  * Options: take 6 points, or borrow an exhausted soldier. Only the owner's own exhausted soldiers (1, or 2 after
    enemy double damage) are eligible [I-8].
  * Borrowed soldier resolves fully: Spy → 1 pt + token + Marshal effect; Scout → 2 pts + bonus; Miner → 3 pts + Bomb
    effect; Sergeant → 4 pts; Lieutenant → 1 step; Bomb → bomb effect; Colonel → 8 pts with carry; General → 2 steps;
    Marshal → its choice. (A Captain can never borrow a Captain.)
  * "The cards stay where they are" [S]: the Captain stays at its mission (face up, activated); the borrowed card stays
    in the exhausted area and remains exhausted; nothing is swapped.
  * S0's remark "(if the Spy or the Miner is activated [this way], this also has consequences for the newly chosen card)"
    is read as: their round-scoped effects apply exactly as if they had been activated themselves [I-8].

9.7 **Bomb (7).** "No infiltration points" refers to the activation itself [I-10]. The "next card" is the next enemy card
  the Bomb's owner reveals in his own guess-turn this day; if he has no further guess-turn this day, the effect lapses.
  Forced retreat means the card cannot be activated; a correct guess on it still scores (+2/+4) and sets double damage.

9.8 **Colonel (8).** Only the Colonel's own 8 points carry over (not deception or Scout bonuses).

9.9 **General (9).** No points; 2 steps, which obey the gate rule (§8); each activation is a separate move.

9.10 **Marshal (10).** Choice made at activation. Option (b)'s 5 points can trigger an infiltration (excess lost).

---

## 10. Deception tokens [S][C: S7, S8]

10.1 Start: 1 per player. Reserve: 2, shared, beside the board [S setup; I-9]. Total in game: 4.

10.2 Holding limit: 2 per player at any time [S].

10.3 Gained only by activating a Spy (directly or borrowed by a Captain) [S].

10.4 Played during the opponent's guess-turn on one of your own cards, before the guess is named [S]; one per card [I-9].

10.5 Correct guess → no effect. Wrong guess → soldier activation first (its points and any resulting infiltration/reset),
  then **+4** infiltration points [S] (also when the card was forced to retreat [I-5]).

10.6 A played token is removed from the game whether the guess was right or wrong [S] (it does **not** return to the reserve).

10.7 Unused tokens carry over to later days [I-9].

---

## 11. End of a day [S][C: S8]

A day ends when all 8 deployed cards are face up. If it was Day 3, go to §12. Otherwise:

11.1 **New exhausted soldiers:** each player takes the 4 soldiers he deployed this day, shuffles them face down, and the
   opponent draws 1 at random — or **2** if the opponent has the \`doubleDamage\` flag (§9 Bomb) [S]. These are placed
   face up next to the owner's reference card and cannot be deployed next day.

11.2 The previous exhausted soldier(s) and the other deployed cards return to the owner's hand. Next-day hand size =
   10 − (number of new exhausted cards) = 9 or 8 [S].

11.3 The current intel card goes onto the old-intel pile, all old intel cards remaining visible [S].

11.4 Remove all Intel tokens from the Mission cards [S]; clear retreat/activation marks.

11.5 Clear all round flags (Scout, Spy, Miner, Bomb pending, double damage) [I-10].

11.6 Advance the Day marker [S].

11.7 Infiltration markers, Double Agent and held Deception tokens stay as they are [S].

11.8 The player who did not start this day starts the next [S].

---

## 12. End of the game [S][C: S1, S3, S6]

12.1 **Flag capture (any day, any moment):** the player who moves the Double Agent onto the opponent's flag (§8) wins at
   once [S]. Tabletop check: the winner must turn up his remaining cards to prove a legal deployment; if any card was
   misplaced, his opponent wins instead [S]. (With engine validation this never happens.)

12.2 **After Day 3** (all cards revealed):
   * Double Agent in Blue's territory (position > 0) → **Red wins**; in Red's territory (< 0) → **Blue wins**, however
     far it got [S].
   * Double Agent on the neutral centre (0) → the player with more infiltration points (current marker value 0–9) wins [S].
   * Still equal → **draw** [S].

---

## 13. Special rules for tabletop errors [S]

A digital engine that validates deployment (§5.1) and intel placement (§5.2) makes these unreachable. Implement them only
for an optional "honour / tabletop" mode.

13.1 **False intel.** If a revealed card (not the Sergeant) had an Intel token wrongly placed or wrongly omitted, it counts
   immediately as *correctly guessed*: it retreats and the opponent gains 2 infiltration points [S] (fixed 2, not Scout-
   boosted [I-21]).

13.2 **Wrong rank order.** If a just-revealed card (not the Sergeant) is out of order relative to its owner's other
   revealed cards: every step this player moved the Double Agent this day is undone (\`doubleAgent -= dir ×
   daStepsThisRound[player]\`), his infiltration marker goes to 0, and this card and all his other cards this day count as
   identified (retreat; no activation). He turns them up at their normal turn; on his own guess-turns he keeps guessing the
   opponent's cards [S]. The opponent scores no points for those auto-revealed cards beyond what the triggering guess
   already earned [I-21].

---

## 14. Team play (3–4 players) [S][C: S3, S4]

14.1 Two teams; one colour per team; each team uses one soldier deck, one infiltration marker, its Deception tokens and
   exhausted soldiers jointly [I-20].

14.2 One teammate plays Missions 1 and 2, the other Missions 3 and 4; each chooses his own soldiers and battles the opponent
   who plays the same missions (guesses them and is guessed by him) [S][I-20].

14.3 Teammates may talk openly about strategy but may not whisper [S].

14.4 Deploy: teammates may not look at the soldier cards or the reference card at the same time. After the first teammate
   chooses the cards for Missions 1–2, the other may look at those two cards **once** (to keep the rank order legal);
   otherwise they may not look at each other's cards, so the first teammate does not know Missions 3–4 [S].

14.5 3 players (box says 2–4): one side is a single player playing all four missions [I-20].

---

## 15. Interpretations we chose (sources silent or ambiguous)

**I-1 Intel card composition.** Six cards, each a block of four consecutive ranks; blocks {1–4}, {4–7}, {7–10}, two copies
   each. *Why:* S5 "four numbers", S6 "numerical ranges", S7 lists exactly these three categories; 6 cards / 3 blocks.
   The deck is data: the game option \`intel_cards\` ([U-2]).

**I-2 Board length.** Default G = 3 spaces per territory (the 3rd being in front of the gate), flag beyond. *Why:* a small
   (20×20 cm box) board carrying two 11-space tracks; a 2-day flag capture (S0 illustration "the Double Agent reaches the
   blue flag in round 2") is possible but not trivial. Unverified: the game option \`board_length\` ([U-1]).

**I-3 Gate rule granularity.** Each infiltration, Lieutenant or General activation is its own "move"; a second, separate move
   in the same guess-turn (e.g. Lieutenant to the gate, then deception +4 triggering an infiltration) captures the flag.
   *Why:* S0 speaks of reaching the gate "in one move" and capturing "in a later move"; S3 "if he is in front of the
   fortress and may be moved, the flag is conquered".

**I-4 Spy "finds" Marshal / Miner "comes upon" Bomb = round-scoped effect on the owner's later reveals**, not a same-
   mission-position confrontation. *Why:* (a) the German subject is "der Spieler" (the player) who "finds" — i.e. reveals
   while guessing; (b) it parallels the Scout ("each rank you guess correctly after activation") and Bomb ("next card you
   reveal") wording; (c) a positional reading would make the Spy's power impossible: by the ordering rule the Spy is
   always at Mission 1–2 and the Marshal at Mission 3–4; (d) mission cards are mirrored (S9), so positions are not a
   natural pairing. Not retroactive.

**I-5 Deception on a force-retreated card.** If the guess is wrong the +4 is still paid; only the soldier's activation is
   blocked. *Why:* the +4 is conditioned on the wrong guess ("because the deception succeeded"); retreat only blocks
   abilities. The game option \`deception_pays_on_forced_retreat\` (default true) selects the alternative.

**I-6 Correct guess on a force-retreated card** scores normally (+2/+4) and, for the Bomb, sets double damage (S0 says so for
   the Bomb explicitly).

**I-7 Activation timing.** Points, token gains and Double Agent moves resolve immediately; S0's "(immediately or later in the
   round)" is read as describing the delayed effects of Spy, Scout, Miner and Bomb, not a right to postpone. *Why:* S4
   ("can immediately activate … earn any Infiltration points or move the Double Agent directly") and the deception
   sequencing in S0 ("activate … get the points … then +4"). The alternative (postponable until the end of the day) is
   not offered ([U-5]).

**I-8 Captain** borrows only its owner's exhausted soldiers; the borrowed card's full ability applies (incl. Spy/Miner
   round effects, Colonel carry, Marshal choice, Bomb); no cards move. *Why:* exhausted cards lie by their owner's
   reference card; "in case of 2 exhausted soldiers choose 1" only makes sense for one's own (2 only after enemy double
   damage).

**I-9 Deception token supply.** Shared reserve of 2 (4 tokens total); used tokens leave the game; a Spy gives a token only
   if the reserve is non-empty and the owner holds < 2; at most one token per card; tokens persist between days.
   *Why:* S0 setup places "the reserve deception tokens" beside the board; "removed from the game". (S10 speaks of "each
   player's reserve token"; the practical difference is only whether one player could take both reserve tokens. The game
   option \`deception_reserve = per-side\` plays that reading, [U-6].)

**I-10 Bomb.** "Next card" = next enemy card revealed by the Bomb's owner on his own guess-turn the same day; lapses at the
    end of the day; the "no infiltration points" sentence refers to the Bomb's own activation.

**I-11 Double damage draw** is random (blind draw from the 4 shuffled deployed cards), like normal exhaustion — S0's
    "auswählen" (select) vs "ziehen" (draw) is resolved in favour of the end-of-round procedure text.

**I-12 Mission numbering.** Mission 1 is the owner's leftmost; ascending means strictly increasing (ranks are unique).

**I-13 Sergeant intel.** Free choice, independent of the intel card; submitted secretly, revealed with the other tokens.

**I-14 Guessable ranks.** Any rank 1–10 may be named (a UI may warn about impossible ones, e.g. exhausted or revealed ranks).

**I-15 Colonel carry** applies only to the Colonel's 8 points; overflow ≤ 7 so no second infiltration from one gain.

**I-16 Deception +4** is a separate gain after the soldier's gain (S0 explicit), so the soldier's own infiltration resets
    first and its excess is lost.

**I-17 Scout and deception bonuses** never carry overflow.

**I-18 Marshal −5** floors at 0 and has no further effect on the opponent.

**I-19 Final tie-break** compares current marker values (0–9), since 10 never persists.

**I-20 Team play** resources are shared per team; guesser/defender pairs are the players holding the same mission numbers;
    mission-specific decisions (deception, activation choices) are made by the teammate owning that mission; 3 players =
    one solo side (not offered by this engine: 2 or 4 seats). *Why:* §14.1 lists one deck, marker, tokens and exhausted
    soldiers per team, and §3 keeps the round flags per colour, so the engine keeps them per team as well.

**I-21 Special rules' scoring** (§13): rule 1 = exactly 2 points; rule 2 = no extra points for auto-revealed cards. (Not
    implemented: §13 cannot arise in this engine.)

**I-22 Starting player** is chosen uniformly at random on Day 1 and alternates. *Why:* the Starting Player card is flipped
    like a coin (§5.3.1).

**I-23 The setup intel card** is only information (old pile); 4 of 6 intel cards are seen per game, 2 never.

**I-24 Flag capture** ends the game mid-day; no further guesses are resolved.

**I-25 Public information:** exhausted soldiers, old and current intel cards, intel tokens, deception tokens (held, reserve,
    and placed), revealed cards and their retreat state, markers, day.

---

## 16. Unverified facts (need a physical copy or scan of the English rulebook/board)

**U-1 Number of Double Agent spaces** from the centre to each gate (G) — game option \`board_length\`, default 3.

**U-2 Exact faces and multiplicity of the 6 Intel cards** — game option \`intel_cards\`, default 2× {1–4}, 2× {4–7}, 2× {7–10}.

**U-3 Reference-card layout** (which numbers are boxed in black) — cosmetic; assumed 5, 7, 9.

**U-4 Captain footnote wording** in English (see §9) — affects only borrowed Spy/Miner; our reading in [I-8].

**U-5 Postponing abilities** ("sofort oder später in der Runde") — immediate [I-7]; postponing is not offered.

**U-6 Reserve tokens shared vs per player** — game option \`deception_reserve\`, \`shared\` (default) or \`per-side\` [I-9].

---

## 17. Worked examples / engine test vectors

From S0:

* **E1 (wrong guess on Spy).** Blue: "I think your Scout (2) is under Mission 1." It is Red's Spy → Red's Spy activates:
  Red +1 point and +1 Deception token (if allowed by cap/reserve).
* **E2 (correct guess).** "I think your Spy (1) is under Mission 1." Correct → guesser +2; Red's Spy retreats (turned 90°).
* **E3 (deception).** Red plays a Deception token on Mission 3; Blue: "I think your General (9) is at Mission 3." It is
  Red's Sergeant → Red +4 (Sergeant), then +4 (deception) = 8 spaces; token removed.
* **E4 (infiltration on Day 2).** Red's marker reaches 10 on Day 2 → Double Agent 2 steps toward Blue's fortress; marker → 0.
* **E5 (Colonel).** Marker 7, Colonel activates: 7→10 (3 used) → Double Agent moves → 0 → +5 → marker 5.
* **E6 (ordering).** \`2-7-4-10\` legal; Miner (3) or Bomb (7) out of ascending order illegal; Sergeant anywhere.
* **E7 (end).** Double Agent on Red's side after Day 3 → Blue wins; on Blue's flag on Day 2 → Red wins at once.

Additional vectors (with defaults G = 3):

* **T1.** Marker 8, Sergeant activated with deception → 8+4 = 10 → infiltrate (2 lost) → 0 → +4 → 4.
* **T2.** Marshal option (b), opponent marker 3 → opponent 0; own marker 6 → 6+5 → infiltrate (1 lost) → 0.
* **T3.** Day 3, Double Agent at +2, Red infiltrates (3 steps) → +3 (gate), 2 steps lost. Later the same day Red's
  Lieutenant activates → Double Agent at gate → flag captured → Red wins.
* **T4.** Day 1, Double Agent at +2, Red's marker on 6. Blue guesses Red's Lieutenant wrongly while Red's Deception token
  is on it → Lieutenant moves the Double Agent 1 step → +3 (gate, stop); then deception +4 → 10 → infiltration (1 step,
  a separate move starting at the gate) → flag captured → Red wins ([I-3]).
* **T5 (Bomb).** Blue starts; Red's Bomb at Mission 2 is guessed wrong by Blue (guess-turn 3) → Red \`bombPending\`. Guess-turn
  4: Red guesses Blue's Mission 2 → card forced to retreat. If Red's guess is correct: Red +2 and \`doubleDamage\`; at day end
  Red draws 2 of Blue's 4 deployed cards → Blue's exhausted next day = those 2; Blue's old exhausted card returns; Blue
  holds 8 cards next day.
* **T6 (Spy).** Red's Spy at Mission 1 activated; Blue's Marshal at Mission 4. Red guesses "General" → wrong, Marshal
  retreats, no activation; if Blue had placed a deception token on it, Blue +4 ([I-5]).
* **T7 (Scout).** Red's Scout at Mission 1 activated; Red later guesses Blue's Mission 3 correctly → +4.
* **T8 (Captain).** Red's Captain activates; Red's exhausted card is the General → Red chooses to borrow it → Double Agent
  2 steps; Captain stays at its mission; General stays exhausted.
* **T9 (Miner vs Bomb).** Red's Miner activated earlier in the day; Red reveals Blue's Bomb with a wrong guess → Bomb
  retreats, does not explode.
* **T10 (final tie).** After Day 3 the Double Agent is at 0, both markers at 6 → draw.
* **T11 (deception supply).** Both players used their starting tokens; both reserve tokens were taken by Spy activations
  and used → later Spy activations give no token.
`;var fa=`# Black Spy: die Regeln in Kürze

## 1. Karten

1.1 60 Karten: je 11 in **Blau, Gelb, Rot und Grün** (Ränge 1 Informant bis 11 Direktor, die 7 ist der **Spion**) und 16 **schwarze** Karten: die Ränge 1–11 und fünf zusätzliche schwarze Spione.

1.6 Die **rote 1 trägt einen Stern**: wer sie hat, eröffnet den ersten Stich.

## 2. Geben

2.3 Alle Karten werden verteilt: zu dritt 20, zu viert 15, zu fünft 12, zu sechst 10 je Spieler. Der Geber wechselt im Uhrzeigersinn.

## 3. Weitergeben

3.1 Vor jeder Runde gibt jeder **genau 3 Karten** verdeckt weiter.

3.3 Die Richtung wechselt: abwechselnd nach links und rechts, zu viert links, rechts, gegenüber.

3.4 Die erhaltenen Karten siehst du erst, wenn du selbst weitergegeben hast.

## 4. Der erste Stich

4.1 Wer die rote 1 hat, eröffnet.

4.3 Der erste Stich darf **nicht mit einer schwarzen Karte** eröffnet werden.

## 5. Stichspiel

5.1 Reihum spielt jeder eine Karte.

5.2 **Bedienen:** Spiel eine Karte in der **Farbe oder dem Rang** der eröffnenden Karte. Erst wenn du beides nicht hast, spielst du beliebig. Beispiel: Rot wird mit der 4 eröffnet; ohne rote Karte darfst du die schwarze 4 spielen, gewinnst damit aber nicht.

5.3 Es gibt **keinen Trumpf**: Schwarz sticht nur, wenn Schwarz eröffnet wurde.

5.4 Den Stich gewinnt die **höchste Karte der Eröffnungsfarbe**; der Gewinner eröffnet den nächsten.

5.5 Mehrere schwarze Spione in einem schwarz eröffneten Stich: der zuerst gespielte gewinnt, solange kein höherer Schwarzer fällt.

## 6. Wertung

6.1 Schwarze 1–6 je 1 Punkt, jeder **schwarze Spion 10**, schwarze 8 bis 11 zwei bis fünf Punkte; **bunte Spione je −5**. Zusammen 60 Punkte je Runde.

6.2 Wer **alle 16 schwarzen Karten** hat, bekommt 0, alle anderen je 60; bunte Spione zählen trotzdem −5.

## 7. Spielende

7.2 Das Spiel endet nach der Runde, in der jemand 200 (zu dritt), 150 (zu viert), 120 (zu fünft) oder 100 Punkte (zu sechst) erreicht.

7.3 Es **gewinnt die niedrigste Summe**.

7.4 Bei gleicher niedrigster Summe teilen sich die Spieler den Sieg.

## 8. Varianten

8.1 **Ohne gute Spione:** bunte 7er zählen 0, die Runde hat 80 Punkte.

## 9. Beispiele

**Bedienen (§5.2).** Die rote 4 ist ausgespielt.

\`\`\`cards
Ausgespielt: red-4
Deine Hand: red-9 black-4 green-2
Du darfst legen: red-9 black-4
\`\`\`

Du hast eine rote Karte, also darf die rote 9 folgen; die schwarze 4 auch (der ausgespielte Rang). Die grüne 2 nicht: sie hat weder die Farbe noch den Rang.

**Weder Farbe noch Rang.** Die rote 4 ist ausgespielt.

\`\`\`cards
Ausgespielt: red-4
Deine Hand: green-2 black-7
Du darfst legen: green-2 black-7
\`\`\`

Du hast keine rote Karte und keine 4: jede Karte darf folgen. Wirfst du hier den schwarzen Spion ab, bekommt wer den Stich gewinnt seine 10 Punkte.

**Der erste Stich (§4).** Du hast die rote 1, also spielst du aus.

\`\`\`cards
Deine Hand: red-1 black-2 blue-5
Du darfst ausspielen: red-1 blue-5
\`\`\`

Der erste Stich darf nicht mit Schwarz eröffnet werden.

**Schwarze Spione in einem Stich (§5.5).** Vier Spieler; die schwarze 7 ist ausgespielt.

\`\`\`cards
Der Reihe nach gelegt: black-7 black-7 green-7 black-5
\`\`\`

Der erste schwarze Spion gewinnt: der zweite schlägt ihn nicht, und keine höhere schwarze Karte fällt. Wer gewinnt, bekommt 10 + 10 − 5 + 1 = 16 Punkte (der grüne Spion zieht 5 ab).

**Eine höhere schwarze Karte schlägt die Spione.**

\`\`\`cards
Der Reihe nach gelegt: black-3 black-7 black-7 black-9
\`\`\`

Die schwarze 9 gewinnt und bekommt 1 + 10 + 10 + 3 = 24 Punkte.

**Kein Trumpf (§5.3).** Die gelbe 7 ist ausgespielt.

\`\`\`cards
Der Reihe nach gelegt: yellow-7 black-7 yellow-2
\`\`\`

Die schwarze 7 bedient über den Rang, aber Schwarz wurde nicht ausgespielt: die gelbe 7 gewinnt. Wer sie gewinnt, bekommt −5 + 10 + 0 = 5 Punkte.
`;var ga=`# Deck of Spies: die Regeln in Kürze

## 1. Material

1.1 Ein normales Kartenspiel ohne Joker (52 Karten). Werte: Ass = 1, 2–10 = Zahlenwert, Bube = 11, Dame = 12, König = 13.

1.3 Die **wichtigsten Spione** sind die zwölf Buben, Damen und Könige. Die vier **Asse** sind deine **Doppelagenten**.

## 2. Vorbereitung

2.1 Sortiere die Karten in vier Gruppen: A–4 (16 Karten), 5–7, 8–10 und B–K (je 12). Mische jede Gruppe für sich.

2.2 Der **Spionstapel** liegt offen: oben die 5–7, darunter die 8–10, zuunterst die Bildkarten. Sichtbar ist nur der oberste Spion.

2.3 Die A–4 sind dein verdeckter **Ziehstapel**; nimm 5 Karten auf die Hand.

## 3. Ein Zug

3.1 Die oberste Karte des Spionstapels ist der Spion dieses Zugs.

3.2 Reicht die Summe deiner Handkarten nicht an seinen Wert heran, **musst du ihn ausschalten** (§6). Sonst **wehrst du ihn ab** (§4) oder **wirbst ihn an** (§5).

3.3 Nach dem Abwehren oder Anwerben darfst du Karten **in Rente schicken** (§7); dann füllst du auf (§8).

## 4. Abwehren

4.1 Lege Handkarten beliebiger Farbe ab, deren Werte zusammen mindestens den Wert des Spions ergeben.

4.2 **Jede Karte muss nötig sein:** ohne irgendeine der gelegten Karten darf die Summe nicht mehr reichen. Beispiel: Eine 5 wehrst du mit 2 + 3, A + 4 oder einer 7 ab; mit 3 + 4 darfst du keine 2 dazulegen.

4.3 Der Spion kommt auf den **Spion-Ablagestapel**, deine Karten auf deinen **eigenen Ablagestapel**.

## 5. Anwerben

5.2 Wie Abwehren, aber alle Karten haben die **Farbe des Spions**. Der Spion kommt mit deinen Karten auf deinen eigenen Ablagestapel: er gehört ab jetzt dir. Beispiel: Gegen die Herz-7 legst du Herz-3 und Herz-5.

5.3 **Doppelagent:** Ein Ass in der Farbe des Spions macht beim Anwerben beliebig viele andere Handkarten zu Karten dieser Farbe; es zählt 1 und darf immer mitgespielt werden.

## 6. Ausschalten

6.1 Nur wenn deine Hand den Spion nicht schlagen kann.

6.3 Opfere ein Ass (aus Hand, Ziehstapel oder eigenem Ablagestapel): es ist aus dem Spiel. Der Spion kommt auf den Spion-Ablagestapel, deine übrigen Handkarten auf deinen Ablagestapel. In diesem Zug gibt es keine Rente.

## 7. In Rente schicken

7.1 Nach dem Abwehren oder Anwerben darfst du **zwei oder mehr Karten desselben Werts** aus der Hand für immer ablegen: so wird dein Stapel stärker.

7.2 Höchstens eine Gruppe pro Zug, und nur Karten eines Werts.

## 8. Auffüllen

8.1 Am Ende jedes Zugs ziehst du auf 5 Karten nach. Ist der Ziehstapel leer, mischst du deinen eigenen Ablagestapel als neuen Ziehstapel.

## 9. Spielende

9.1 Das Spiel endet, wenn alle 36 Spione erledigt sind.

9.2 Du **gewinnst**, wenn dir mindestens **7 der 12 wichtigsten Spione** gehören (in Hand, Ziehstapel und eigenem Ablagestapel). 6 zu 6 ist verloren.

9.3 Musst du ausschalten und hast **kein Ass** mehr, ist das Spiel **sofort verloren**, egal wie viele wichtige Spione du hast.

## 11. Beispiele

**Das Abwehr-Beispiel (§4.2).** Der Spion ist die Kreuz-5; deine Hand ergibt 17.

\`\`\`cards
Spion: 5C
Hand: 2D 3H 4S 7D AS
Eine Abwehr: 3H 4S
\`\`\`

Du darfst mit der 7 abwehren, mit 2 + 3, 2 + 4 oder 3 + 4, oder mit 4 + Ass. Nicht mit 3 + 4 + 2 (ohne die 2 reichen 3 + 4 immer noch für die 5) und nicht mit 7 + Ass (das Ass ist nicht nötig). Anwerben kannst du nicht: du hast kein Kreuz. Ausschalten darfst du nicht: deine Hand schlägt die 5. Nach der Abwehr mit 3 + 4 behältst du 2, 7 und das Ass, hast kein Paar für die Rente und ziehst 2 nach.

**Anwerben (§5.2).** Der Spion ist die Herz-7.

\`\`\`cards
Spion: 7H
Hand: 3H 5H 2S 4D AC
Anwerben: 3H 5H
\`\`\`

Nur Herz-3 und Herz-5 werben ihn an; sie und die Herz-7 kommen auf deinen eigenen Ablagestapel, und die 7 gehört dir. (Abwehren könnten sie ihn auch, ebenso 5 + 2, 5 + 4, 3 + 4 oder 2 + 4 + Ass.)

**Der Doppelagent (§5.3).** Der Spion ist die Kreuz-9.

\`\`\`cards
Spion: 9C
Hand: AC 4C 3D 2H 2S
Anwerben: AC 4C 3D 2H
\`\`\`

Das Kreuz-Ass macht die 3 und eine 2 zu Kreuz: Ass + 4 + 3 + 2 ergibt 10 und wirbt die 9 an. Alle fünf Karten (12) dürfen es nicht: ohne eine 2 reichen sie immer noch für die 9. Ohne das Ass könnten 4 + 3 + 2 sie nur abwehren.

**In Rente schicken (§7).** Der Spion ist die Herz-7.

\`\`\`cards
Spion: 7H
Hand: 2C 2H 2S 3S 9D
Abwehr: 9D
Rente: 2C 2H 2S
\`\`\`

Du wehrst mit der 9 ab und schickst dann zwei oder alle drei 2er in Rente: sie verlassen deinen Stapel für immer und liegen mit dem Spion auf dem Spion-Ablagestapel. Sind alle drei weg, behältst du die 3 und ziehst 4 nach. Hättest du mit 2 + 2 + 3 abgewehrt, bliebe nur eine 2: nichts für die Rente.

**Ausschalten (§6).** Der Spion ist die Karo-Dame (12); deine Hand ergibt 11.

\`\`\`cards
Spion: QD
Hand: 2C 2H 3S AD 3D
Geopfert: AD
\`\`\`

Deine Hand schlägt sie nicht, also musst du sie ausschalten. Hier opferst du das Karo-Ass aus der Hand; du könntest stattdessen ein Ass aus dem Ziehstapel nehmen (der dann gemischt wird) oder aus deinem eigenen Ablagestapel. Das Ass ist aus dem Spiel, die Dame kommt auf den Spion-Ablagestapel (sie zählt für die Spione), deine übrigen Handkarten auf deinen Ablagestapel. Keine Rente in diesem Zug, obwohl du zwei Paare hast; du ziehst 5 nach.
`;var ya=`# Stratego Spies & Lies: die Regeln in Kürze

## 1. Material

1.1 Jede Seite (Rot, Blau) hat 10 Soldatenkarten, 4 Missionskarten, einen Infiltrationsturm und Erkundungsmarken; dazu das Spielbrett mit dem **Doppelspion**, 6 Erkundungskarten und Täuschungsmarken.

## 2. Die Soldaten

1 Spionin, 2 Aufklärer, 3 Mineur, 4 Feldwebel, 5 Leutnant, 6 Kapitän, 7 Bombe, 8 Oberst, 9 General, 10 Feldmarschall.

## 4. Vorbereitung

4.4 Der Doppelspion steht in der Mitte (0). Unter 0 liegt das Gebiet von Rot, über 0 das von Blau; am Ende jeder Seite steht das Tor zur Festung mit der Fahne.

4.9 Der Gegner zieht zufällig einen deiner 10 Soldaten: er liegt offen als **erschöpft** daneben und darf am 1. Tag nicht aufgestellt werden. Die anderen 9 hältst du geheim auf der Hand.

## 5. Ein Tag

5.1 **Aufstellung:** Beide legen gleichzeitig und verdeckt je einen Soldaten unter jede ihrer 4 Missionen. Von Mission 1 bis 4 müssen die Ränge **aufsteigen**; nur der **Feldwebel** darf überall liegen. Erschöpfte Soldaten dürfen nicht aufgestellt werden.

5.2 **Erkundung:** Eine Erkundungskarte wird aufgedeckt. Auf jede Mission, deren Rang auf der Karte steht, kommt eine **Erkundungsmarke**; nur der Feldwebel darf lügen (Marke oder nicht, frei).

5.3 **Mission:** Acht Ratezüge, abwechselnd: der Startspieler rät die gegnerische Mission 1, dann der andere die Mission 1 des Startspielers, und so weiter bis Mission 4.

## 7. Infiltration

7.1 Richtig geraten bringt dem Ratenden 2 Punkte auf seinen Infiltrationsturm (höchstens 10), und der Soldat tritt den Rückzug an (er wird quer gelegt). Falsch geraten aktiviert den Soldaten (§9).

7.2 Erreicht ein Turm 10, zieht der Doppelspion so viele Felder Richtung gegnerische Festung, wie der Tag zählt; der Turm geht auf 0.

## 8. Der Doppelspion

8.4 Ein Zug stoppt vor dem gegnerischen Tor.

8.5 Steht der Doppelspion vor dem Tor und darf die Seite ihn weiterziehen, **erobert sie die Fahne**.

## 9. Die Fähigkeiten

9.1 Wird ein Soldat falsch geraten, wird er **aktiviert**: er bringt seine Punkte und seine Wirkung. Spionin: eine Täuschungsmarke. Aufklärer: richtige Tipps zählen heute 4. Mineur: eine gegnerische Bombe muss sofort den Rückzug antreten. Leutnant: 1 Feld. Kapitän: 6 Punkte oder einen eigenen erschöpften Soldaten ausleihen. Bombe: die nächste gegnerische Karte tritt den Rückzug an. Oberst: 8 Punkte, die nicht verfallen. General: 2 Felder. Feldmarschall: 10 Punkte oder Sabotage (5 Punkte, der Gegner verliert 5).

9.6 Der Kapitän leiht nur einen deiner eigenen erschöpften Soldaten aus.

## 10. Täuschungsmarken

10.4 Bevor der Gegner rät, darfst du eine Täuschungsmarke auf deinen Soldaten legen.

10.5 Rät er falsch, bekommst du nach der Aktivierung **4 Infiltrationspunkte** dazu; rät er richtig, bewirkt sie nichts. Die Marke ist danach aus dem Spiel.

## 11. Ende eines Tages

11.1 Die vier aufgestellten Soldaten jeder Seite sind am nächsten Tag erschöpft; wer heute nicht begann, beginnt morgen.

## 12. Spielende

12.1 Wer die **Fahne erobert**, gewinnt **sofort**, egal wie die Infiltrationspunkte stehen.

12.2 Nach dem 3. Tag: steht der Doppelspion im Gebiet von Blau, gewinnt Rot, im Gebiet von Rot gewinnt Blau. Steht er in der Mitte, gewinnt der höhere Infiltrationsturm; bei Gleichstand ist es unentschieden.

## 14. Teamspiel

14.1 Zu viert spielen zwei Teams; in einem Team spielt einer die Missionen 1 und 2, der andere 3 und 4.

## 17. Beispiele

**Aufstellen (§5.1).** Die vier Missionen von Rot, 1 bis 4:

\`\`\`cards
Erlaubt: red:2 red:7 red:4 red:10
Nicht erlaubt: red:7 red:3 red:4 red:10
\`\`\`

Die Ränge steigen von Mission 1 bis 4; der Feldwebel (4) darf überall liegen. Die zweite Reihe legt den Mineur (3) hinter die Bombe (7): nicht erlaubt.

**Falsch geraten (§7.1, §9.1).** Blau: „Ich glaube, unter Mission 1 liegt dein Aufklärer.“ Unter der Mission 1 von Rot liegt:

\`\`\`cards
Mission 1 von Rot: red:1
\`\`\`

Es ist die Spionin von Rot, also falsch geraten, und die Spionin wird aktiviert: Rot bekommt 1 Infiltrationspunkt und eine Täuschungsmarke. Hätte Blau „Spionin“ gesagt, hätte Blau 2 Punkte bekommen, und die Spionin hätte den Rückzug angetreten.

**Täuschung (§10.5).** Rot legt eine Täuschungsmarke auf Mission 3; Blau rät „General“.

\`\`\`cards
Mission 3 von Rot: red:4
\`\`\`

Es ist der Feldwebel: falsch. Rot bekommt 4 Punkte für den Feldwebel und 4 weitere für die Täuschungsmarke, zusammen 8; die Marke ist aus dem Spiel.

**Mineur und Bombe (§9.1).** Der Mineur von Rot wurde früher am Tag aktiviert; jetzt rät Rot eine Mission von Blau falsch, und dort liegt die Bombe.

\`\`\`cards
Aktivierter Mineur von Rot: red:3
Mission von Blau: blue:7
\`\`\`

Die Bombe ließe die nächste Karte von Rot den Rückzug antreten, aber der Mineur ist aktiv: die Bombe tritt sofort den Rückzug an und geht nicht hoch.
`;var ba=`# Black Spy: the rules in short

## 1. Cards

1.1 60 cards: 11 each in **blue, yellow, red and green** (ranks 1, the informant, to 11, the director; the 7 is the **spy**) and 16 **black** cards: the ranks 1–11 and five extra black spies.

1.6 The **red 1 bears a star**: whoever holds it leads the first trick.

## 2. Dealing

2.3 Every card is dealt: 20 each with three players, 15 with four, 12 with five, 10 with six. The dealer moves on clockwise.

## 3. Passing

3.1 Before each deal is played, everyone passes **exactly 3 cards** face down.

3.3 The direction changes: left and right in turn; with four players left, right, across.

3.4 You see the cards you receive only once you have passed your own.

## 4. The first trick

4.1 Whoever holds the red 1 leads.

4.3 The first trick may **not be led with a black card**.

## 5. Tricks

5.1 In turn, everyone plays one card.

5.2 **Following:** play a card of the **colour or the rank** of the card led. Only when you have neither may you play any card. Example: red is led with the 4; with no red card you may play the black 4, but it does not win.

5.3 There are **no trumps**: black wins a trick only when black was led.

5.4 The **highest card of the colour led** wins the trick; its winner leads the next.

5.5 Several black spies in a trick led with black: the first one played wins, unless a higher black card falls.

## 6. Scoring

6.1 Black 1–6 one point each, every **black spy 10**, black 8 to 11 two to five points; **coloured spies −5 each**. 60 points a deal in all.

6.2 Whoever takes **all 16 black cards** scores 0 and everyone else 60; coloured spies still count −5.

## 7. The end

7.2 The game ends after the deal in which someone reaches 200 points (three players), 150 (four), 120 (five) or 100 (six).

7.3 The **lowest total wins**.

7.4 Players tied on the lowest total share the win.

## 8. Variants

8.1 **No good spies:** coloured 7s count 0, and a deal is worth 80 points.

## 9. Worked examples

**Following (§5.2).** The red 4 is led.

\`\`\`cards
Led: red-4
Your hand: red-9 black-4 green-2
You may play: red-9 black-4
\`\`\`

You hold a red card, so the red 9 may follow; the black 4 may too (the rank led). The green 2 may not: it has neither the colour nor the rank.

**Neither colour nor rank.** The red 4 is led.

\`\`\`cards
Led: red-4
Your hand: green-2 black-7
You may play: green-2 black-7
\`\`\`

You have no red card and no 4: any card may follow. Throwing the black spy here hands its 10 points to whoever wins the trick.

**The first trick (§4).** You hold the red 1, so you lead.

\`\`\`cards
Your hand: red-1 black-2 blue-5
You may lead: red-1 blue-5
\`\`\`

The first trick may not be led with black.

**Black spies in one trick (§5.5).** Four players; the black 7 is led.

\`\`\`cards
Played in turn: black-7 black-7 green-7 black-5
\`\`\`

The first black spy wins: the second one played does not beat it, and nothing higher in black falls. The winner takes 10 + 10 − 5 + 1 = 16 points (the green spy takes 5 off).

**A higher black card beats the spies.**

\`\`\`cards
Played in turn: black-3 black-7 black-7 black-9
\`\`\`

The black 9 wins and takes 1 + 10 + 10 + 3 = 24 points.

**No trumps (§5.3).** The yellow 7 is led.

\`\`\`cards
Played in turn: yellow-7 black-7 yellow-2
\`\`\`

The black 7 follows by rank, but black was not led: the yellow 7 wins. Its winner takes −5 + 10 + 0 = 5 points.
`;var wa=`# Deck of Spies: the rules in short

## 1. Cards

1.1 A standard deck without jokers (52 cards). Values: Ace = 1, 2–10 = their number, Jack = 11, Queen = 12, King = 13.

1.3 The **most important spies** are the twelve Jacks, Queens and Kings. The four **Aces** are your **double agents**.

## 2. Setting up

2.1 Sort the cards into four groups: A–4 (16 cards), 5–7, 8–10 and J–K (12 each). Shuffle each group on its own.

2.2 The **spy deck** lies face up: the 5–7 on top, the 8–10 below them, the face cards at the bottom. Only the top spy is visible.

2.3 The A–4 are your face-down **draw deck**; take 5 cards into your hand.

## 3. A turn

3.1 The top card of the spy deck is this turn's spy.

3.2 If the cards in your hand add up to less than its value, **you must assassinate it** (§6). Otherwise you **counter it** (§4) or **recruit it** (§5).

3.3 After countering or recruiting you may **retire** cards (§7); then you draw up (§8).

## 4. Countering

4.1 Discard cards of any suit from your hand whose values add up to at least the spy's value.

4.2 **Every card must be needed:** without any one of the cards played, the sum must no longer reach. Example: you counter a 5 with 2 + 3, A + 4 or a 7; with 3 + 4 you may not add a 2.

4.3 The spy goes onto the **spy discard pile**, your cards onto your **own discard pile**.

## 5. Recruiting

5.2 Like countering, but every card is of the **spy's suit**. The spy goes onto your own discard pile with your cards: from now on it is yours. Example: against the 7 of hearts you play the 3 and the 5 of hearts.

5.3 **Double agent:** an Ace of the spy's suit makes any number of other cards of your hand count as that suit when you recruit; it counts 1 and may always be played with them.

## 6. Assassinating

6.1 Only when your hand cannot beat the spy.

6.3 Sacrifice an Ace (from your hand, your draw deck or your own discard pile): it leaves the game. The spy goes onto the spy discard pile, the rest of your hand onto your discard pile. There is no retiring this turn.

## 7. Retiring

7.1 After countering or recruiting you may discard **two or more cards of one value** from your hand for good: your deck grows stronger.

7.2 At most one group a turn, and cards of one value only.

## 8. Drawing up

8.1 At the end of every turn you draw up to 5 cards. When the draw deck is empty, you shuffle your own discard pile into a new draw deck.

## 9. The end

9.1 The game ends when all 36 spies are dealt with.

9.2 You **win** when at least **7 of the 12 most important spies** are yours (in your hand, draw deck and own discard pile). 6 to 6 is a loss.

9.3 If you must assassinate and have **no Ace** left, the game is **lost at once**, however many important spies you own.

## 11. Worked examples

**The counter example (§4.2).** The spy is the 5 of clubs; your hand adds up to 17.

\`\`\`cards
Spy: 5C
Hand: 2D 3H 4S 7D AS
A counter: 3H 4S
\`\`\`

You may counter with the 7, with 2 + 3, 2 + 4 or 3 + 4, or with 4 + Ace. Not with 3 + 4 + 2 (without the 2, 3 + 4 still reaches 5) and not with 7 + Ace (the Ace is not needed). You cannot recruit: you hold no club. You may not assassinate: your hand beats the 5. After countering with 3 + 4 you keep 2, 7 and the Ace, have no pair to retire, and draw 2.

**Recruiting (§5.2).** The spy is the 7 of hearts.

\`\`\`cards
Spy: 7H
Hand: 3H 5H 2S 4D AC
Recruit: 3H 5H
\`\`\`

Only the 3 and the 5 of hearts recruit it; they and the 7 of hearts go onto your own discard pile, and the 7 is yours. (They could also counter it, as could 5 + 2, 5 + 4, 3 + 4 or 2 + 4 + Ace.)

**The double agent (§5.3).** The spy is the 9 of clubs.

\`\`\`cards
Spy: 9C
Hand: AC 4C 3D 2H 2S
Recruit: AC 4C 3D 2H
\`\`\`

The Ace of clubs makes the 3 and a 2 count as clubs: Ace + 4 + 3 + 2 is 10 and recruits the 9. All five cards (12) may not: without a 2 they still reach 9. Without the Ace, 4 + 3 + 2 could only counter it.

**Retiring (§7).** The spy is the 7 of hearts.

\`\`\`cards
Spy: 7H
Hand: 2C 2H 2S 3S 9D
Counter: 9D
Retire: 2C 2H 2S
\`\`\`

You counter with the 9, then retire two or all three 2s: they leave your deck for good with the spy on the spy discard pile. With all three gone you keep the 3 and draw 4. Had you countered with 2 + 2 + 3, only one 2 would be left: nothing to retire.

**Assassinating (§6).** The spy is the Queen of diamonds (12); your hand adds up to 11.

\`\`\`cards
Spy: QD
Hand: 2C 2H 3S AD 3D
Sacrificed: AD
\`\`\`

Your hand cannot beat it, so you must assassinate it. Here you sacrifice the Ace of diamonds from your hand; you could take an Ace from your draw deck instead (the deck is then shuffled) or from your own discard pile. The Ace leaves the game, the Queen goes onto the spy discard pile (she counts for the spies), the rest of your hand onto your discard pile. No retiring this turn, though you hold two pairs; draw 5.
`;var ka=`# Stratego Spies & Lies: the rules in short

## 1. Components

1.1 Each side (red, blue) has 10 soldier cards, 4 mission cards, an infiltration tower and intel tokens; then there are the board with the **Double Agent**, 6 intel cards and deception tokens.

## 2. The soldiers

1 Spy, 2 Scout, 3 Miner, 4 Sergeant, 5 Lieutenant, 6 Captain, 7 Bomb, 8 Colonel, 9 General, 10 Marshal.

## 4. Setting up

4.4 The Double Agent stands in the middle (0). Below 0 lies red's territory, above 0 blue's; at the end of each side stands the gate to the fortress with its flag.

4.9 Your opponent draws one of your 10 soldiers at random: it lies face up beside you, **exhausted**, and may not be deployed on day 1. You keep the other 9 secret in your hand.

## 5. A day

5.1 **Deployment:** both sides at once lay one soldier face down under each of their 4 missions. From mission 1 to 4 the ranks must **rise**; only the **Sergeant** may go anywhere. Exhausted soldiers may not be deployed.

5.2 **Intel:** an intel card is turned up. Every mission whose rank is on the card gets an **intel token**; only the Sergeant may lie (token or not, as its side likes).

5.3 **Missions:** eight guesses, in turn: the first player guesses the opponent's mission 1, then the other the first player's mission 1, and so on up to mission 4.

## 7. Infiltration

7.1 A right guess brings the guesser 2 points on its infiltration tower (at most 10), and the soldier retreats (it is turned sideways). A wrong guess activates the soldier (§9).

7.2 When a tower reaches 10, the Double Agent moves as many steps towards the opponent's fortress as the day's number; the tower goes back to 0.

## 8. The Double Agent

8.4 A move stops before the opponent's gate.

8.5 When the Double Agent stands before the gate and its side may move it on, **it captures the flag**.

## 9. The abilities

9.1 A soldier guessed wrong is **activated**: it brings its points and its effect. Spy: a deception token. Scout: right guesses count 4 today. Miner: an enemy Bomb must retreat at once. Lieutenant: 1 step. Captain: 6 points, or borrow one of your own exhausted soldiers. Bomb: the next enemy card retreats. Colonel: 8 points that are never lost. General: 2 steps. Marshal: 10 points, or sabotage (5 points, and the opponent loses 5).

9.6 The Captain borrows only one of your own exhausted soldiers.

## 10. Deception tokens

10.4 Before your opponent guesses, you may put a deception token on your soldier.

10.5 If the guess is wrong, you gain **4 infiltration points** more after the activation; if it is right, the token does nothing. Either way it then leaves the game.

## 11. The end of a day

11.1 Each side's four deployed soldiers are exhausted the next day; whoever did not start today starts tomorrow.

## 12. The end

12.1 Whoever **captures the flag** wins **at once**, however the infiltration points stand.

12.2 After day 3: if the Double Agent stands in blue's territory, red wins; in red's territory, blue wins. In the middle, the higher infiltration tower wins; a tie is a draw.

## 14. Teams

14.1 With four players, two teams play; in a team one plays missions 1 and 2, the other 3 and 4.

## 17. Worked examples

**Deploying (§5.1).** Red's four missions, 1 to 4:

\`\`\`cards
Allowed: red:2 red:7 red:4 red:10
Not allowed: red:7 red:3 red:4 red:10
\`\`\`

The ranks rise from mission 1 to 4; the Sergeant (4) may lie anywhere. The second row puts the Miner (3) after the Bomb (7): not allowed.

**A wrong guess (§7.1, §9.1).** Blue: "I think your Scout is under mission 1." Red's mission 1 holds:

\`\`\`cards
Red's mission 1: red:1
\`\`\`

It is Red's Spy, so the guess is wrong and the Spy is activated: Red gains 1 infiltration point and a deception token. Had Blue said "Spy", Blue would have gained 2 points and the Spy would have retreated.

**Deception (§10.5).** Red puts a deception token on mission 3; Blue guesses "General".

\`\`\`cards
Red's mission 3: red:4
\`\`\`

It is the Sergeant: wrong. Red gains 4 points for the Sergeant, then 4 more for the deception token, 8 in all; the token leaves the game.

**The Miner and the Bomb (§9.1).** Red's Miner was activated earlier in the day; now Red guesses Blue's mission wrong, and it holds the Bomb.

\`\`\`cards
Red's activated Miner: red:3
Blue's mission: blue:7
\`\`\`

The Bomb would make Red's next card retreat, but the Miner is active: the Bomb retreats at once and does not go off.
`;var Xs=/^(?:A|[2-9]|10|J|Q|K)[CDHS]$/,er=/^(?:blue|yellow|red|green|black)-(?:[1-9]|1[01])$/,tr=/^(red|blue):([1-9]|10)$/;function nr(e){if(Xs.test(e))return Me(e);if(er.test(e))return Ae(e);let t=tr.exec(e);return t!==null?$e(Number(t[2]),t[1]??"red"):null}function Sa(e){let t=e.split(`
`).map(n=>n.trim()).filter(n=>n!=="").map(n=>{let r=n.indexOf(":"),o=r<0?"":n.slice(0,r).trim(),i=(r<0?n:n.slice(r+1)).trim().split(/\s+/).filter(l=>l!=="");return s("div",{class:"example-row"},o===""?null:s("span",{class:"example-label"},o),s("span",{class:"example-cards"},...i.map(l=>nr(l)??s("code",{"data-unknown-card":l},l))))});return s("div",{class:"rules-example","data-testid":"rules-example"},...t)}var va=/^(\d+(?:\.\d+)*)\.?\s/;function we(e,t){let n=[],r=/`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\(([^)\s]+)\)|§\s?(\d+(?:\.\d+)*)/g,o=0;for(let i of e.matchAll(r)){let l=i.index??0;l>o&&n.push(e.slice(o,l));let[d,c,u,m,f,h,p]=i;c!==void 0?n.push(s("code",{},c)):u!==void 0?n.push(s("strong",{},...we(u,t))):m!==void 0?n.push(s("em",{},...we(m,t))):f!==void 0&&h!==void 0?n.push(/^https?:\/\//.test(h)?s("a",{href:h,rel:"noopener noreferrer"},f):f):p!==void 0&&n.push(s("a",{href:`#${t}s-${p.replace(/\.$/,"")}`},d)),o=l+d.length}return o<e.length&&n.push(e.slice(o)),n}function ar(e){return e.trim().replace(/^\|/,"").replace(/\|$/,"").split("|").map(t=>t.trim())}function ht(e,t="",n={}){let r=e.replace(/\r\n/g,`
`).split(`
`),o=[],i=[],l=0,d=(c,u)=>{let m=va.exec(c)?.[1];if(m===void 0)return null;let f=`${t}s-${m}`;return i.some(h=>h.id===f)?null:(i.push({number:m,title:c.replace(/\*\*/g,"").slice(0,90),id:f,level:u}),f)};for(;l<r.length;){let u=(r[l]??"").trim();if(u===""){l+=1;continue}if(u.startsWith("```")){let w=n[u.slice(3).trim()],b=[];for(l+=1;l<r.length&&!(r[l]??"").trim().startsWith("```");)b.push(r[l++]??"");l+=1,o.push(w===void 0?s("pre",{},s("code",{},b.join(`
`))):w(b.join(`
`)));continue}let m=/^(#{1,6})\s+(.*)$/.exec(u);if(m!==null){let w=Math.min(4,Math.max(2,(m[1]??"").length)),b=m[2]??"",S=d(b,w),y=w===2?"h2":w===3?"h3":"h4";o.push(s(y,{id:S,tabindex:S===null?null:-1},...we(b,t))),l+=1;continue}if(/^(-{3,}|\*{3,})$/.test(u)){o.push(s("hr",{})),l+=1;continue}if(u.startsWith("|")){let w=[];for(;l<r.length&&(r[l]??"").trim().startsWith("|");){let y=r[l++]??"";/^\s*\|[\s:|-]+\|\s*$/.test(y)||w.push(ar(y))}let[b,...S]=w;o.push(s("div",{class:"rules-table"},s("table",{},b===void 0?null:s("thead",{},s("tr",{},...b.map(y=>s("th",{scope:"col"},...we(y,t))))),s("tbody",{},...S.map(y=>s("tr",{},...y.map(C=>s("td",{},...we(C,t)))))))));continue}if(u.startsWith(">")){let w=[];for(;l<r.length&&(r[l]??"").trim().startsWith(">");)w.push((r[l++]??"").trim().replace(/^>\s?/,""));o.push(s("blockquote",{},s("p",{},...we(w.join(" "),t))));continue}let f=/^(?:[-*+]|\d+\.)\s+/;if(f.test(u)&&!/^\d+\.\d/.test(u)){let w=/^\d+\./.test(u),b=[];for(;l<r.length;){let S=(r[l]??"").trim();if(S==="")break;if(f.test(S)&&!/^\d+\.\d/.test(S))b.push(S.replace(f,""));else if(/^\s/.test(r[l]??"")&&b.length>0)b[b.length-1]+=` ${S}`;else break;l+=1}o.push(s(w?"ol":"ul",{},...b.map(S=>s("li",{},...we(S,t)))));continue}let h=[];for(;l<r.length;){let w=(r[l]??"").trim();if(w===""||/^(#{1,6}\s|\||>|```|-{3,}$)/.test(w)||h.length>0&&f.test(w)&&!/^\d+\.\d/.test(w)||h.length>0&&va.test(w)&&/^\d+\.\d/.test(w))break;h.push(w),l+=1}h.length===0&&(h.push(u),l+=1);let p=h.join(" "),T=/^\d+\.\d/.test(p)?d(p,5):null;o.push(s("p",{id:T,tabindex:T===null?null:-1,class:T===null?null:"rule"},...we(p,t)))}return{nodes:o,sections:i}}var sr={"deck-of-spies":pa,"black-spy":ha,"spies-and-lies":ma},rr={de:{"deck-of-spies":ga,"black-spy":fa,"spies-and-lies":ya},en:{"deck-of-spies":wa,"black-spy":ba,"spies-and-lies":ka}};function Ta(e){return s("p",{class:"rules-other"},`${a.rulesOther}: `,...xn.filter(t=>t!==e).flatMap((t,n)=>[n>0?" · ":null,s("a",{href:Q(t)},H(t)?.title??t)]))}function Da(e){let t=e.replace(/^§\s*/,"").replace(/\.$/,""),n=document.getElementById(`s-${t}`)??document.getElementById(`en-s-${t}`);return n===null?!1:(n.scrollIntoView(),n.focus(),!0)}function Aa(e,t){let n=sr[t],r=H(t)?.title??t;if(n===void 0){document.title=a.notFound,k(e,s("header",{class:"page-head"},s("nav",{},s("a",{href:"/"},a.lobby)," ",J())),s("main",{},s("h1",{},a.notFound),s("p",{},a.rulesUnknown),Ta(t)));return}document.title=`${a.rulesTitle(r)} · spies`;let o=rr[Ce]?.[t],i=o===void 0?ht(n):ht(o,"",{cards:Sa}),l=o===void 0?null:ht(n,"en-"),d=[...i.sections,...l?.sections??[]],c=s("input",{type:"text",id:"rules-section",inputmode:"decimal",size:6,"data-testid":"rules-section"}),u=s("input",{type:"search",id:"rules-search","data-testid":"rules-search"}),m=s("div",{class:"rules-found","data-testid":"rules-found","aria-live":"polite"}),f=s("form",{class:"rules-jump",role:"search"},s("label",{for:"rules-section"},`${a.rulesGoTo} §`),c,s("button",{type:"submit","data-testid":"rules-go"},a.rulesGo),s("label",{for:"rules-search"},a.rulesSearch),u);f.addEventListener("submit",p=>{p.preventDefault();let T=c.value.trim();T!==""&&!Da(T)?m.textContent=a.rulesNoSection(T):m.textContent=""}),u.addEventListener("input",()=>{let p=u.value.trim().toLowerCase();if(p.length<2){k(m);return}let T=d.filter(w=>{let b=document.getElementById(w.id),S=b?.textContent??"";for(let y=b?.nextElementSibling;y!=null&&y.id==="";y=y.nextElementSibling)S+=` ${y.textContent??""}`;return S.toLowerCase().includes(p)});k(m,s("p",{},a.rulesMatches(T.length)),s("ul",{},...T.slice(0,30).map(w=>s("li",{},s("a",{href:`#${w.id}`},w.title)))))});let h=i.sections.filter(p=>p.level<=3);k(e,s("header",{class:"page-head"},s("nav",{},s("a",{href:"/"},a.lobby)," · ",J()),s("h1",{},a.rulesTitle(r)),Ta(t),f,m),s("main",{class:"rules","data-testid":"rules"},o===void 0?null:s("p",{class:"rules-note","data-testid":"rules-note"},a.rulesSummaryNote),s("nav",{class:"rules-contents","aria-label":a.rulesContents},s("h2",{},a.rulesContents),s("ul",{},...h.map(p=>s("li",{class:`level-${p.level}`},s("a",{href:`#${p.id}`},p.title))))),s("article",{lang:o===void 0?"en":Ce},...i.nodes),l===null?null:s("article",{lang:"en",class:"rules-full"},...l.nodes))),location.hash.startsWith("#s-")&&Da(location.hash.slice(3))}function ir(e){let t=location.pathname,n=/^\/play\/([^/]+)\/?$/.exec(t),r=/^\/replay\/([^/]+)\/?$/.exec(t),o=/^\/join\/([^/]+)\/(\d+)\/?$/.exec(t),i=/^\/rules\/([^/]+)\/?$/.exec(t);t==="/"?Mn(e):n!==null?ca(e,decodeURIComponent(n[1]??"")):o!==null?An(e,decodeURIComponent(o[1]??""),Number(o[2])):r!==null?ua(e,decodeURIComponent(r[1]??"")):i!==null?Aa(e,decodeURIComponent(i[1]??"")):(document.title=a.notFound,k(e,s("nav",{},J()),s("h1",{},a.notFound),s("a",{href:"/"},a.backToLobby)))}var $a=document.getElementById("app");$a!==null&&ir($a);

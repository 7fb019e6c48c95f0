import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf, onSignedOut } from './api.ts'
import { SCREENS } from './screens.ts'
import { GymPicker } from './screens/gym-picker/gym-picker.tsx'
import { Login } from './screens/login/login.tsx'
import { PinPrompt } from './components/pin-prompt.tsx'
import { HubLinkBanner } from './components/hub-link-banner.tsx'
import { Kiosk } from './screens/kiosk/kiosk.tsx'
import { isKiosk } from './screens/kiosk/kiosk-types.ts'
import { forgetSession, hasLoggedIn, storedGymId, storeGymId } from './session.ts'
import type { DeskPlace } from './screens/screen-props.ts'
import type { Account, Gym, Page } from './types.ts'

/**
 * The login until the browser has a session, then the desk. Whether it has one is told by the
 * `csrftoken` cookie; a session the box has since ended answers 401 and brings the login back.
 */
export function App() {
  const [signedIn, setSignedIn] = useState(hasLoggedIn())
  const [notice, setNotice] = useState<string | null>(null)
  useEffect(
    () =>
      onSignedOut((why) => {
        setNotice(why)
        setSignedIn(false)
      }),
    [],
  )
  if (!signedIn)
    return (
      <Login
        notice={notice}
        onLoggedIn={() => {
          setNotice(null)
          setSignedIn(true)
        }}
      />
    )
  return (
    <Desk
      onLogOut={async () => {
        // The session ends at the server, which clears its cookies; the page forgets it whatever
        // the answer.
        await api('POST', '/api/logout/').catch(() => {})
        forgetSession()
        setNotice('You have logged out.')
        setSignedIn(false)
      }}
    />
  )
}

interface Loaded {
  account: Account
  gyms: Gym[]
}

function Desk({ onLogOut }: { onLogOut: () => void }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [gymId, setGymId] = useState(storedGymId())
  const [choosingGym, setChoosingGym] = useState(false)
  // Each move gets a new number, so that opening a place remounts its screen even when the desk
  // is already on that screen (a second customer's page from the same list).
  const [{ place, move }, setPlace] = useState<{ place: DeskPlace; move: number }>({
    place: { screen: SCREENS[0]!.id },
    move: 0,
  })
  const open = (next: DeskPlace) => setPlace((now) => ({ place: next, move: now.move + 1 }))

  const load = () => {
    setError(null)
    // A kiosk's session may read its account but not the gyms: it shows the kiosk alone.
    const gyms = api<Page<Gym>>('GET', '/api/gyms/?page_size=100').catch((e: unknown) => e)
    Promise.all([api<Account>('GET', '/api/my-account/'), gyms])
      .then(([account, gyms]) => {
        if (isKiosk(account)) return setLoaded({ account, gyms: [] })
        if (gyms instanceof Error) throw gyms
        setLoaded({ account, gyms: (gyms as Page<Gym>).results })
      })
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
      })
  }
  useEffect(load, [])

  if (error !== null)
    return (
      <main class="centered">
        <p role="alert">The desk could not load: {error}</p>
        <button onClick={load}>Try again</button>
      </main>
    )
  if (loaded === null) return <main class="centered">Loading…</main>

  const { account, gyms } = loaded
  if (isKiosk(account)) return <Kiosk />
  // A desk at an organization with one gym never has to choose.
  const gym = gyms.find((g) => g.id === gymId) ?? (gyms.length === 1 ? gyms[0] : undefined)
  const choose = (id: number) => {
    storeGymId(id)
    setGymId(id)
    setChoosingGym(false)
  }
  const screens = SCREENS.filter((s) => s.allowed(account))
  const screen = screens.find((s) => s.id === place.screen) ?? screens[0]!

  return (
    <>
      <PinPrompt active={account.pin_mode} />
      <header class="bar">
        <span class="brand">{account.organization_name}</span>
        <nav aria-label="Screens">
          {screens.map((s) => (
            <button
              key={s.id}
              class="tab"
              aria-current={s.id === screen.id ? 'page' : undefined}
              onClick={() => open({ screen: s.id })}
            >
              {s.label}
            </button>
          ))}
        </nav>
        <span class="spacer" />
        {gym && (
          <button
            class="quiet gym"
            onClick={() => setChoosingGym(true)}
            title={gym.name}
            aria-label={`Gym: ${gym.name}. Change gym`}
          >
            {gym.name}
          </button>
        )}
        <span class="who">{account.email}</span>
        {/* Stays in view on a tablet, where the email gives way: the desk must know it asks PINs. */}
        {account.pin_mode && <span class="pin-mode">PIN mode</span>}
        <button class="quiet" onClick={onLogOut} title={`Log out ${account.email}`}>
          Log out
        </button>
      </header>
      <HubLinkBanner timeZone={gym?.time_zone} />
      {gym === undefined || choosingGym ? (
        <GymPicker
          gyms={gyms}
          current={gym?.id ?? account.default_gym_id}
          onChoose={choose}
          onCancel={gym === undefined ? undefined : () => setChoosingGym(false)}
        />
      ) : (
        <screen.View
          key={`${screen.id}-${gym.id}-${move}`}
          account={account}
          gym={gym}
          place={place.screen === screen.id ? place : { screen: screen.id }}
          open={open}
        />
      )}
    </>
  )
}

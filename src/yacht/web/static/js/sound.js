// Sounds made in the page with Web Audio (no sound files): the rattle of a roll, a
// chime for a score, an arpeggio for a bonus, a fanfare for a yacht, a bell for your
// turn, a tune at the end.

import { soundOn, setSound } from "./prefs.js";

let ctx = null;
let enabled = soundOn();

function audio() {
  if (!enabled) return null;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  if (!ctx) {
    try {
      ctx = new Ctor();
    } catch {
      return null;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** Browsers start audio only after a click or key: get ready on the first one. */
export function unlockOnGesture() {
  const unlock = () => {
    if (enabled) audio();
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
}

export const isOn = () => enabled;

export function toggle() {
  enabled = !enabled;
  setSound(enabled);
  if (enabled) play("score");
  return enabled;
}

function tone(ac, { freq, start, length, type = "sine", volume = 0.18, glide }) {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (glide) osc.frequency.exponentialRampToValueAtTime(glide, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(start);
  osc.stop(start + length + 0.05);
}

let noise = null;
function noiseBuffer(ac) {
  if (noise && noise.sampleRate === ac.sampleRate) return noise;
  const length = Math.floor(ac.sampleRate * 0.05);
  noise = ac.createBuffer(1, length, ac.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  return noise;
}

function click(ac, start, pitch, volume) {
  const src = ac.createBufferSource();
  src.buffer = noiseBuffer(ac);
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = pitch;
  band.Q.value = 4;
  const gain = ac.createGain();
  gain.gain.value = volume;
  src.connect(band).connect(gain).connect(ac.destination);
  src.start(start);
}

const NOTES = { C5: 523.25, E5: 659.25, G5: 783.99, C6: 1046.5, D5: 587.33, A5: 880, B5: 987.77 };

const SOUNDS = {
  roll(ac, t, dice = 5) {
    // dice knocking on the table and on each other: short filtered clicks
    const hits = Math.min(24, 6 + dice * 2);
    for (let i = 0; i < hits; i += 1) {
      const at = t + Math.random() * 0.32 + (i / hits) * 0.08;
      click(ac, at, 1800 + Math.random() * 2600, 0.5 + Math.random() * 0.6);
    }
  },
  score(ac, t) {
    tone(ac, { freq: NOTES.E5, start: t, length: 0.18, volume: 0.14 });
    tone(ac, { freq: NOTES.A5, start: t + 0.09, length: 0.3, volume: 0.12 });
  },
  zero(ac, t) {
    tone(ac, { freq: 330, start: t, length: 0.28, type: "triangle", volume: 0.12, glide: 220 });
  },
  bonus(ac, t) {
    [NOTES.C5, NOTES.E5, NOTES.G5, NOTES.C6].forEach((f, i) =>
      tone(ac, { freq: f, start: t + i * 0.08, length: 0.35, type: "triangle", volume: 0.14 }));
  },
  yacht(ac, t) {
    const tune = [NOTES.C5, NOTES.C5, NOTES.G5, NOTES.E5, NOTES.C6];
    const at = [0, 0.12, 0.24, 0.42, 0.6];
    tune.forEach((f, i) => {
      tone(ac, { freq: f, start: t + at[i], length: i === 4 ? 0.7 : 0.16, type: "square", volume: 0.07 });
      tone(ac, { freq: f / 2, start: t + at[i], length: i === 4 ? 0.7 : 0.16, type: "triangle", volume: 0.1 });
    });
  },
  turn(ac, t) {
    // your turn: two soft bell notes, rising
    tone(ac, { freq: NOTES.G5, start: t, length: 0.35, volume: 0.11 });
    tone(ac, { freq: NOTES.C6, start: t + 0.16, length: 0.5, volume: 0.1 });
  },
  end(ac, t) {
    const tune = [NOTES.G5, NOTES.E5, NOTES.C5, NOTES.D5, NOTES.E5, NOTES.C6];
    tune.forEach((f, i) =>
      tone(ac, { freq: f, start: t + i * 0.16, length: i === tune.length - 1 ? 0.9 : 0.2, type: "triangle", volume: 0.13 }));
  },
};

/** Play a sound by name (roll, score, zero, bonus, yacht, turn, end) when sound is on. */
export function play(name, arg) {
  if (!enabled) return;
  // what was played, for the browser tests (the last few names)
  const played = (window.yachtSounds = window.yachtSounds || []);
  played.push(name);
  if (played.length > 50) played.shift();
  const ac = audio();
  const fn = SOUNDS[name];
  if (!ac || !fn || ac.state !== "running") return;
  try {
    fn(ac, ac.currentTime + 0.01, arg);
  } catch {
    // a browser without some node: no sound rather than an error
  }
}
